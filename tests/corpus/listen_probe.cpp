// A TCP listener on 127.0.0.1 for the corpus test: prints its port, then records every
// connection made to it (one line each in LOG) until killed. The corpus's network playlists
// point at it, so an empty LOG shows that vhist connected nowhere.
//   listen_probe LOG   (prints the port on stdout)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: listen_probe LOG\n");
    return 2;
  }
  const int server = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (server < 0 || ::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(server, 16) != 0 ||
      ::getsockname(server, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("listen_probe");
    return 1;
  }
  std::printf("%u\n", static_cast<unsigned>(ntohs(addr.sin_port)));
  std::fflush(stdout);
  for (;;) {
    const int client = ::accept(server, nullptr, nullptr);
    if (client < 0) continue;
    if (std::FILE* log = std::fopen(argv[1], "a")) {
      std::fprintf(log, "connection\n");
      std::fclose(log);
    }
    ::close(client);
  }
}
