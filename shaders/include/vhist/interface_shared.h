// How the shaders' push-constant blocks and parameter buffers are declared once for GLSL and
// C++: a block written with these macros is a GLSL block in a shader and a C++ struct with the
// same fields at the same offsets in the host code, so a field cannot be added, removed,
// reordered or retyped on one side only. The C++ alignments are those of GLSL's std430 (the
// layout of push constants and of the parameter buffers): 8 bytes for addresses and vec2, 16
// for vec4 and uvec4.
//
//   VHIST_PUSH_BLOCK(Name) { VHIST_UINT(width); ... } VHIST_PC;
//       GLSL: layout(push_constant) uniform Name { uint width; ... } pc;
//       C++:  struct Name { std::uint32_t width; ... };
//   VHIST_PARAMS_BLOCK(Name) { ... };   a read-only buffer reached by device address
//       GLSL: layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Name
//   VHIST_UNIFORM_BLOCK(Name) { ... } VHIST_UB;   a uniform buffer at set 0, binding 0 (std140;
//       a block of 4-byte scalars, 8-byte vec2 and addresses and 16-byte vectors and arrays of
//       vec4 lays out as std430), named `params` in the shader
//   VHIST_ADDRESS(Type, name): GLSL `Type name` (a buffer_reference type or uvec2 the shader
//       declares before including the block), C++ a 64-bit device address.
//
// Each block is compiled into the shaders that define its VHIST_SHADER_<name> before including
// the header that holds it (one push-constant block per shader); C++ sees all of them, in
// namespace vhist::shader. Valid GLSL 4.60 and C++20.
#ifndef VHIST_INTERFACE_SHARED_H
#define VHIST_INTERFACE_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#define VHIST_PUSH_BLOCK(name) struct name
#define VHIST_PARAMS_BLOCK(name) struct alignas(16) name
#define VHIST_UNIFORM_BLOCK(name) struct alignas(16) name
#define VHIST_PC
#define VHIST_UB
#define VHIST_ADDRESS(type, name) std::uint64_t name
#define VHIST_ADDRESSES(type, name, n) std::uint64_t name[n]
#define VHIST_UINT(name) std::uint32_t name
#define VHIST_UINTS(name, n) std::uint32_t name[n]
#define VHIST_INT(name) std::int32_t name
#define VHIST_INTS(name, n) std::int32_t name[n]
#define VHIST_FLOAT(name) float name
#define VHIST_VEC2(name) alignas(8) float name[2]
#define VHIST_VEC4(name) alignas(16) float name[4]
#define VHIST_VEC4S(name, n) alignas(16) float name[n][4]
#define VHIST_UVEC4(name) alignas(16) std::uint32_t name[4]
#define VHIST_UVEC4S(name, n) alignas(16) std::uint32_t name[n][4]
#else
#define VHIST_PUSH_BLOCK(name) layout(push_constant) uniform name
#define VHIST_PARAMS_BLOCK(name) layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer name
#define VHIST_UNIFORM_BLOCK(name) layout(set = 0, binding = 0, std140) uniform name
#define VHIST_PC pc
#define VHIST_UB params
#define VHIST_ADDRESS(type, name) type name
#define VHIST_ADDRESSES(type, name, n) type name[n]
#define VHIST_UINT(name) uint name
#define VHIST_UINTS(name, n) uint name[n]
#define VHIST_INT(name) int name
#define VHIST_INTS(name, n) int name[n]
#define VHIST_FLOAT(name) float name
#define VHIST_VEC2(name) vec2 name
#define VHIST_VEC4(name) vec4 name
#define VHIST_VEC4S(name, n) vec4 name[n]
#define VHIST_UVEC4(name) uvec4 name
#define VHIST_UVEC4S(name, n) uvec4 name[n]
#endif

#endif  // VHIST_INTERFACE_SHARED_H
