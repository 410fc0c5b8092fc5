#include "vhist/render/buffer.h"

#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"

namespace vhist::render {

Buffer::Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use, bool addressable,
               const std::string& name, bool exportable)
    : size_(size) {
  const VkDevice device = context.device();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage | (addressable ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (exportable) info.pNext = &external;
  VkBuffer buffer = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateBuffer(device, &info, nullptr, &buffer));
  buffer_ = UniqueBuffer(device, buffer);
  context.set_name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<std::uint64_t>(buffer), name.c_str());

  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkMemoryPropertyFlags required = 0;
  VkMemoryPropertyFlags preferred = 0;
  switch (use) {
    case MemoryUse::device:
      required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
    case MemoryUse::upload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryUse::upload_device:
      required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryUse::readback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.pNext = addressable ? &flags : nullptr;
  // An exported allocation is its buffer's alone (what the importer maps is the whole of it).
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = buffer;
  VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (exportable) {
    dedicated.pNext = alloc.pNext;
    export_info.pNext = &dedicated;
    alloc.pNext = &export_info;
  }
  alloc.allocationSize = req.size;
  allocation_size_ = req.size;
  alloc.memoryTypeIndex = context.find_memory_type(req.memoryTypeBits, required, preferred);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkAllocateMemory(device, &alloc, nullptr, &memory));
  memory_ = UniqueMemory(device, memory);
  context.set_name(VK_OBJECT_TYPE_DEVICE_MEMORY, reinterpret_cast<std::uint64_t>(memory), name.c_str());
  VHIST_VK_CHECK(vkBindBufferMemory(device, buffer, memory, 0));

  if (use != MemoryUse::device) {
    VHIST_VK_CHECK(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped_));
  }
  if (addressable) {
    VkBufferDeviceAddressInfo address_info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    address_info.buffer = buffer;
    address_ = vkGetBufferDeviceAddress(device, &address_info);
  }
}

}  // namespace vhist::render
