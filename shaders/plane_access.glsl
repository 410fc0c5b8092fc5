// Reading a decoded frame's samples where the decoder laid them out, for the passes that take
// the planes as uploaded (convert.comp, planes.comp). The including shader declares the Words
// buffer reference and a push-constant block `pc` with plane[3], stride[3], comp[3] and format,
// packed as ConvertPush says (compute_push.h).

uint bits() { return pc.format & 0xffu; }
uint sample_bytes() { return (pc.format >> 8u) & 0xfu; }
uint model() { return (pc.format >> 12u) & 0xfu; }
uint chroma_sx() { return (pc.format >> 16u) & 0xfu; }
uint chroma_sy() { return (pc.format >> 20u) & 0xfu; }

// Code value of sample (x, y) of component c, on the component's own grid.
uint read_sample(uint c, uint x, uint y) {
  uint desc = pc.comp[c];
  uint p = desc & 0xfu;
  uint byte_offset = y * pc.stride[p] + x * ((desc >> 8u) & 0xffu) + ((desc >> 4u) & 0xfu);
  uint word = Words(pc.plane[p]).word[byte_offset >> 2u];
  uint raw = sample_bytes() == 1u ? (word >> ((byte_offset & 3u) * 8u)) & 0xffu
                                  : (word >> ((byte_offset & 2u) * 8u)) & 0xffffu;
  return (raw >> ((desc >> 16u) & 0xffu)) & ((1u << bits()) - 1u);
}
