#version 460
// An empty dispatch: the benchmark's measure of fixed per-dispatch cost.
layout(local_size_x = 1) in;
void main() {}
