#version 460
#extension GL_EXT_device_group : require
// The DeviceIndex built-in (Vulkan 1.1 core, the DeviceGroup capability): a device group
// of one physical device runs every dispatch on device 0.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { uint v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    v[i] = uint(gl_DeviceIndex) * 1000u + i;
}
