// Path helpers shared by the atomic writers (files.cpp, atomic_file.cpp); private to vhist_util.
#pragma once

#include <string>

namespace vhist::util::detail {

// The file a symbolic link finally points to; `path` itself when it is no link or cannot be
// resolved (a dangling link is then replaced, as without following).
std::string resolve_link(const std::string& path);

// The folder part of `path`: "." for a bare name, "/" for a file in the root.
std::string folder_of(const std::string& path);

}  // namespace vhist::util::detail
