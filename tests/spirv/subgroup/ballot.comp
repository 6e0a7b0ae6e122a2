// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Ballots (lanes 32..63 in the second word), their bit counts, scans and first / last bits,
// inverse ballots and bit extraction, under divergence too.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 16u;
    uvec4 b = subgroupBallot((x & 1u) != 0u);
    r[o + 0u] = b.x; r[o + 1u] = b.y; r[o + 2u] = b.z; r[o + 3u] = b.w;
    r[o + 4u] = subgroupBallotBitCount(b);
    r[o + 5u] = subgroupBallotInclusiveBitCount(b);
    r[o + 6u] = subgroupBallotExclusiveBitCount(b);
    r[o + 7u] = subgroupBallotFindLSB(b);
    r[o + 8u] = subgroupBallotFindMSB(b);
    r[o + 9u] = uint(subgroupInverseBallot(b));
    r[o + 10u] = uint(subgroupBallotBitExtract(b, (x >> 8) % gl_SubgroupSize));
    uvec4 c = uvec4(x, x >> 1, x >> 2, x >> 3);
    r[o + 11u] = uint(subgroupInverseBallot(subgroupBroadcastFirst(c)));
    r[o + 12u] = 0xdeadu; r[o + 13u] = 0xdeadu; r[o + 14u] = 0xdeadu; r[o + 15u] = 0xdeadu;
    if (x % 5u < 3u) {
        uvec4 d = subgroupBallot(true);
        r[o + 12u] = d.x; r[o + 13u] = d.y;
        r[o + 14u] = subgroupBallotBitCount(d);
        r[o + 15u] = subgroupBallotExclusiveBitCount(subgroupBallot((x & 2u) != 0u));
    }
}
