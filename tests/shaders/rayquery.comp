#version 460
// softnavi-rayquery: one ray per invocation through the TLAS with a ray query; the
// closest committed triangle hit (t, primitive, instance custom index, front face,
// barycentrics) or a miss (t = -1) goes to the hit buffer.
#extension GL_EXT_ray_query : require
layout(local_size_x = 64) in;
layout(binding = 0) uniform accelerationStructureEXT tlas;
// Per ray: origin.xyz and tmin; direction.xyz and tmax.
layout(std430, binding = 1) readonly buffer Rays { vec4 rays[]; };
// Per ray: t, primitive index, instance custom index, front face; u, v, 0, 0.
layout(std430, binding = 2) writeonly buffer Hits { vec4 hits[]; };
layout(push_constant) uniform P { uint count; uint flags; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) {
        return;
    }
    vec4 o = rays[2 * i];
    vec4 d = rays[2 * i + 1];
    rayQueryEXT q;
    rayQueryInitializeEXT(q, tlas, flags, 0xff, o.xyz, o.w, d.xyz, d.w);
    while (rayQueryProceedEXT(q)) {
    }
    if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionTriangleEXT) {
        hits[2 * i] = vec4(rayQueryGetIntersectionTEXT(q, true),
                           float(rayQueryGetIntersectionPrimitiveIndexEXT(q, true)),
                           float(rayQueryGetIntersectionInstanceCustomIndexEXT(q, true)),
                           rayQueryGetIntersectionFrontFaceEXT(q, true) ? 1.0 : 0.0);
        hits[2 * i + 1] = vec4(rayQueryGetIntersectionBarycentricsEXT(q, true), 0.0, 0.0);
    } else {
        hits[2 * i] = vec4(-1.0, -1.0, -1.0, -1.0);
        hits[2 * i + 1] = vec4(0.0);
    }
}
