#!/usr/bin/env python3
"""WebGPU compute passes (WGSL) through wgpu-py / wgpu-native on the Vulkan driver that the
loader selects (VK_ICD_FILENAMES), each checked against a CPU reference.

Prints one `PASS name` / `FAIL name: why` line per pass and exits with status 1 if any
failed, 2 if no Vulkan adapter could be had (the reason is printed), 0 otherwise.

Only the Vulkan backend is enabled, so a run never falls back to GL (llvmpipe) silently.
`AllowUnderlyingNoncompliantAdapter` keeps wgpu-hal from hiding a driver that reports a
conformance version of 0.0.0.0 (softnavi has not passed the CTS and says so).

    tests/python/compute.py [--adapter SUBSTRING]
"""

import argparse
import logging
import struct
import sys

import numpy as np
import wgpu
import wgpu.backends.wgpu_native as wgpu_native
from wgpu.backends.wgpu_native.extras import set_instance_extras


def u32_bytes(values):
    return np.asarray(values, dtype=np.uint32).tobytes()


class Runner:
    def __init__(self, device):
        self.device = device

    def storage(self, data, copy_src=True):
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_DST
        if copy_src:
            usage |= wgpu.BufferUsage.COPY_SRC
        return self.device.create_buffer_with_data(data=data, usage=usage)

    def uniform(self, data):
        return self.device.create_buffer_with_data(
            data=data, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST
        )

    def pipeline(self, wgsl, entry="main"):
        module = self.device.create_shader_module(code=wgsl)
        return self.device.create_compute_pipeline(
            layout="auto", compute={"module": module, "entry_point": entry}
        )

    def bind_group(self, pipeline, buffers, group=0):
        entries = [
            {"binding": i, "resource": {"buffer": b, "offset": 0, "size": b.size}}
            for i, b in enumerate(buffers)
        ]
        return self.device.create_bind_group(
            layout=pipeline.get_bind_group_layout(group), entries=entries
        )

    def dispatch(self, pipeline, bind_group, groups):
        encoder = self.device.create_command_encoder()
        cpass = encoder.begin_compute_pass()
        cpass.set_pipeline(pipeline)
        cpass.set_bind_group(0, bind_group)
        cpass.dispatch_workgroups(*groups)
        cpass.end()
        self.device.queue.submit([encoder.finish()])

    def read(self, buffer, dtype):
        return np.frombuffer(self.device.queue.read_buffer(buffer), dtype=dtype)


SAXPY = """
struct Params { a: f32, n: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < params.n) {
        y[i] = params.a * x[i] + y[i];
    }
}
"""


def saxpy(r):
    n = 10_007  # not a multiple of the workgroup size
    rng = np.random.default_rng(1)
    x = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    y = rng.uniform(-4.0, 4.0, n).astype(np.float32)
    a = np.float32(2.5)
    pipeline = r.pipeline(SAXPY)
    params = r.uniform(struct.pack("<fI", a, n))
    bx, by = r.storage(x.tobytes()), r.storage(y.tobytes())
    r.dispatch(pipeline, r.bind_group(pipeline, [params, bx, by]), ((n + 63) // 64, 1, 1))
    got = r.read(by, np.float32)
    want = a * x + y
    bad = np.flatnonzero(np.abs(got - want) > 1e-5 * np.maximum(1.0, np.abs(want)))
    if bad.size:
        i = bad[0]
        return f"{bad.size} of {n} wrong, y[{i}] = {got[i]}, expected {want[i]}"
    return None


REDUCE = """
const WG: u32 = 256u;
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> partial: array<u32>;
var<workgroup> scratch: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = wid.x * WG + lid;
    var v = 0u;
    if (i < arrayLength(&input)) {
        v = input[i];
    }
    scratch[lid] = v;
    workgroupBarrier();
    var stride = WG / 2u;
    loop {
        if (stride == 0u) { break; }
        if (lid < stride) {
            scratch[lid] = scratch[lid] + scratch[lid + stride];
        }
        workgroupBarrier();
        stride = stride / 2u;
    }
    if (lid == 0u) {
        partial[wid.x] = scratch[0];
    }
}
"""


def reduce(r):
    n = 100_003
    rng = np.random.default_rng(2)
    data = rng.integers(0, 1 << 12, n, dtype=np.uint32)
    groups = (n + 255) // 256
    pipeline = r.pipeline(REDUCE)
    bin_, bout = r.storage(data.tobytes()), r.storage(bytes(4 * groups))
    r.dispatch(pipeline, r.bind_group(pipeline, [bin_, bout]), (groups, 1, 1))
    got = r.read(bout, np.uint32)
    want = np.add.reduceat(data.astype(np.uint64), np.arange(0, n, 256)).astype(np.uint32)
    bad = np.flatnonzero(got != want)
    if bad.size:
        i = bad[0]
        return f"{bad.size} of {groups} partial sums wrong, [{i}] = {got[i]}, expected {want[i]}"
    if int(got.astype(np.uint64).sum()) != int(data.astype(np.uint64).sum()):
        return "total differs"
    return None


HISTOGRAM = """
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 64>;
@group(0) @binding(2) var<storage, read_write> total: atomic<u32>;

@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&values)) {
        atomicAdd(&bins[values[i] % 64u], 1u);
        atomicAdd(&total, values[i]);
    }
}
"""


def histogram(r):
    n = 50_000
    rng = np.random.default_rng(3)
    data = rng.integers(0, 1000, n, dtype=np.uint32)
    pipeline = r.pipeline(HISTOGRAM)
    bvals, bbins, btotal = r.storage(data.tobytes()), r.storage(bytes(4 * 64)), r.storage(bytes(4))
    r.dispatch(pipeline, r.bind_group(pipeline, [bvals, bbins, btotal]), ((n + 127) // 128, 1, 1))
    got = r.read(bbins, np.uint32)
    want = np.bincount(data % 64, minlength=64).astype(np.uint32)
    if not np.array_equal(got, want):
        i = int(np.flatnonzero(got != want)[0])
        return f"bin {i} = {got[i]}, expected {want[i]}"
    total = int(r.read(btotal, np.uint32)[0])
    want_total = int(data.astype(np.uint64).sum()) & 0xFFFFFFFF
    if total != want_total:
        return f"atomic total {total}, expected {want_total}"
    return None


UNIFORMS = """
struct Params {
    scale: vec4<f32>,
    offset: vec2<i32>,
    count: u32,
    shift: u32,
    matrix: mat2x2<f32>,
}
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>>;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.count) { return; }
    let fi = f32(i);
    let m = p.matrix * vec2<f32>(fi, 1.0);
    out[i] = vec4<f32>(
        fi * p.scale.x + p.scale.w,
        f32(i32(i) * p.offset.x + p.offset.y),
        f32((i << p.shift) ^ 0x5au),
        m.x + m.y * p.scale.y,
    );
}
"""


def uniforms(r):
    count, shift = 1000, 3
    scale = (0.5, -1.25, 0.0, 7.0)
    offset = (-3, 11)
    matrix = (1.5, -2.0, 0.25, 4.0)  # column-major: col0 = (1.5, -2), col1 = (0.25, 4)
    # WGSL uniform layout: vec4 @0, vec2<i32> @16, u32 @24, u32 @28, mat2x2 @32 (columns 8 bytes)
    data = struct.pack("<4f2i2I4f", *scale, *offset, count, shift, *matrix)
    pipeline = r.pipeline(UNIFORMS)
    bparams, bout = r.uniform(data), r.storage(bytes(16 * count))
    r.dispatch(pipeline, r.bind_group(pipeline, [bparams, bout]), ((count + 31) // 32, 1, 1))
    got = r.read(bout, np.float32).reshape(count, 4)
    i = np.arange(count)
    fi = i.astype(np.float32)
    mx = np.float32(matrix[0]) * fi + np.float32(matrix[2])
    my = np.float32(matrix[1]) * fi + np.float32(matrix[3])
    want = np.stack(
        [
            fi * np.float32(scale[0]) + np.float32(scale[3]),
            (i * offset[0] + offset[1]).astype(np.float32),
            ((i << shift) ^ 0x5A).astype(np.float32),
            mx + my * np.float32(scale[1]),
        ],
        axis=1,
    ).astype(np.float32)
    bad = np.argwhere(np.abs(got - want) > 1e-4 * np.maximum(1.0, np.abs(want)))
    if bad.size:
        j, k = bad[0]
        return f"{len(bad)} wrong, out[{j}][{k}] = {got[j, k]}, expected {want[j, k]}"
    return None


# Stage k of a chain: data[i] = data[i] * mul + stage.
CHAIN = """
struct Stage { mul: u32, add: u32 }
@group(0) @binding(0) var<uniform> stage: Stage;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&data)) {
        data[i] = data[i] * stage.mul + stage.add + i;
    }
}
"""


def one_submission(r):
    """One command encoder: several compute passes (and several dispatches in one pass),
    a buffer copy between them, then a single submit."""
    n = 4099
    rng = np.random.default_rng(4)
    data = rng.integers(0, 1 << 20, n, dtype=np.uint32)
    pipeline = r.pipeline(CHAIN)
    stages = [(3, 1), (5, 7), (1, 100), (7, 3), (2, 9)]
    buf = r.storage(data.tobytes())
    copy = r.storage(bytes(4 * n))
    groups = [r.bind_group(pipeline, [r.uniform(struct.pack("<II", m, a)), buf]) for m, a in stages]
    encoder = r.device.create_command_encoder()
    # Pass 1: stages 0 and 1 as two dispatches in one pass.
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    for g in groups[:2]:
        cpass.set_bind_group(0, g)
        cpass.dispatch_workgroups((n + 63) // 64)
    cpass.end()
    # A snapshot after stage 1.
    encoder.copy_buffer_to_buffer(buf, 0, copy, 0, 4 * n)
    # Passes 2..4: one dispatch each.
    for g in groups[2:]:
        cpass = encoder.begin_compute_pass()
        cpass.set_pipeline(pipeline)
        cpass.set_bind_group(0, g)
        cpass.dispatch_workgroups((n + 63) // 64)
        cpass.end()
    r.device.queue.submit([encoder.finish()])
    i = np.arange(n, dtype=np.uint32)
    want = data.copy()
    snapshot = None
    for k, (m, a) in enumerate(stages):
        want = want * np.uint32(m) + np.uint32(a) + i
        if k == 1:
            snapshot = want.copy()
    got = r.read(buf, np.uint32)
    if not np.array_equal(got, want):
        j = int(np.flatnonzero(got != want)[0])
        return f"data[{j}] = {got[j]}, expected {want[j]}"
    got_copy = r.read(copy, np.uint32)
    if not np.array_equal(got_copy, snapshot):
        j = int(np.flatnonzero(got_copy != snapshot)[0])
        return f"snapshot[{j}] = {got_copy[j]}, expected {snapshot[j]}"
    return None


# --- Textures -------------------------------------------------------------------------------


def bind(r, pipeline, resources, group=0):
    """A bind group of buffers (whole), texture views and samplers, at bindings 0, 1, ..."""
    entries = []
    for i, res in enumerate(resources):
        if isinstance(res, wgpu.GPUBuffer):
            res = {"buffer": res, "offset": 0, "size": res.size}
        entries.append({"binding": i, "resource": res})
    return r.device.create_bind_group(layout=pipeline.get_bind_group_layout(group), entries=entries)


def first_mismatch(got, want, tol=0.0):
    """None, or a description of how many elements of `got` differ from `want` (by more than
    `tol`) and the first of them."""
    bad = np.argwhere(np.abs(got.astype(np.float64) - want.astype(np.float64)) > tol)
    if not bad.size:
        return None
    idx = tuple(int(k) for k in bad[0])
    return f"{len(bad)} of {want.size} wrong, {list(idx)} = {got[idx]}, expected {want[idx]}"


STORE_RGBA8 = """
@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let d = textureDimensions(img);
    if (gid.x >= d.x || gid.y >= d.y) { return; }
    let c = vec4<u32>(gid.x * 4u, gid.y * 5u, (gid.x * 7u + gid.y * 13u) % 256u, 255u - gid.x - gid.y);
    textureStore(img, vec2<i32>(gid.xy), vec4<f32>(c) / 255.0);
}
"""

LOAD_RGBA8 = """
@group(0) @binding(0) var img: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> dims: array<u32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let d = textureDimensions(img);
    if (gid.x == 0u && gid.y == 0u) {
        dims[0] = d.x;
        dims[1] = d.y;
        dims[2] = textureNumLevels(img);
    }
    if (gid.x >= d.x || gid.y >= d.y) { return; }
    out[gid.y * d.x + gid.x] = textureLoad(img, vec2<i32>(gid.xy), 0);
}
"""

READ_WRITE_R32F = """
@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;
@group(0) @binding(1) var<storage, read_write> dims: array<u32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let d = textureDimensions(img);
    if (gid.x == 0u && gid.y == 0u) {
        dims[0] = d.x;
        dims[1] = d.y;
    }
    if (gid.x >= d.x || gid.y >= d.y) { return; }
    let p = vec2<i32>(gid.xy);
    let v = textureLoad(img, p).x;
    textureStore(img, p, vec4<f32>(v * 2.0 + f32(gid.x) - 0.25 * f32(gid.y), 0.0, 0.0, 1.0));
}
"""


def storage_texture(r):
    """rgba8unorm: textureStore (write-only storage) in one pass, textureLoad (sampled view)
    in the next; r32float: textureLoad + textureStore on one read_write storage texture.
    textureDimensions of each."""
    w, h = 64, 48
    dev = r.device
    # COPY_DST (unused) makes wgpu zero-initialise the texture with a buffer copy, not with
    # a render pass (its choice for renderable formats without COPY_DST): see
    # texture_zero_init.
    tex = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.STORAGE_BINDING | wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST,
    )
    store, load = r.pipeline(STORE_RGBA8), r.pipeline(LOAD_RGBA8)
    out, dims = r.storage(bytes(16 * w * h)), r.storage(bytes(16))
    encoder = dev.create_command_encoder()
    for pipeline, group in (
        (store, bind(r, store, [tex.create_view()])),
        (load, bind(r, load, [tex.create_view(), out, dims])),
    ):
        cpass = encoder.begin_compute_pass()
        cpass.set_pipeline(pipeline)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups((w + 7) // 8, (h + 7) // 8)
        cpass.end()
    dev.queue.submit([encoder.finish()])
    y, x = np.mgrid[0:h, 0:w].astype(np.uint32)
    want = np.stack([x * 4, y * 5, (x * 7 + y * 13) % 256, 255 - x - y], axis=-1).astype(np.float32) / 255
    got = r.read(out, np.float32).reshape(h, w, 4)
    # Each channel is some k/255 with an exact unorm8 encoding: only the float maths differs.
    why = first_mismatch(got, want, 1e-6)
    if why:
        return f"rgba8unorm store/load: {why}"
    got_dims = r.read(dims, np.uint32)[:3].tolist()
    if got_dims != [w, h, 1]:
        return f"rgba8unorm textureDimensions/textureNumLevels = {got_dims}, expected {[w, h, 1]}"

    # r32float read_write (WGSL `read_write` storage textures: wgpu allows them for the r32
    # formats without any feature).
    rng = np.random.default_rng(5)
    init = rng.uniform(-100.0, 100.0, (h, w)).astype(np.float32)
    rw = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.r32float,
        usage=wgpu.TextureUsage.STORAGE_BINDING | wgpu.TextureUsage.COPY_DST | wgpu.TextureUsage.COPY_SRC,
    )
    dev.queue.write_texture(
        {"texture": rw, "mip_level": 0, "origin": (0, 0, 0)},
        init.tobytes(),
        {"offset": 0, "bytes_per_row": 4 * w, "rows_per_image": h},
        (w, h, 1),
    )
    pipeline = r.pipeline(READ_WRITE_R32F)
    dims = r.storage(bytes(8))
    readback = dev.create_buffer(size=4 * w * h, usage=wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.COPY_SRC)
    encoder = dev.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    cpass.set_bind_group(0, bind(r, pipeline, [rw.create_view(), dims]))
    cpass.dispatch_workgroups((w + 7) // 8, (h + 7) // 8)
    cpass.end()
    # 4 * 64 = 256 bytes a row: already the alignment copy_texture_to_buffer needs.
    encoder.copy_texture_to_buffer(
        {"texture": rw, "mip_level": 0, "origin": (0, 0, 0)},
        {"buffer": readback, "offset": 0, "bytes_per_row": 4 * w, "rows_per_image": h},
        (w, h, 1),
    )
    dev.queue.submit([encoder.finish()])
    got = r.read(readback, np.float32).reshape(h, w)
    want = init * np.float32(2) + x.astype(np.float32) - np.float32(0.25) * y.astype(np.float32)
    why = first_mismatch(got, want, 1e-4)
    if why:
        return f"r32float read_write: {why}"
    got_dims = r.read(dims, np.uint32).tolist()
    if got_dims != [w, h]:
        return f"r32float textureDimensions = {got_dims}, expected {[w, h]}"
    return None


SAMPLE = """
struct Query { uv: vec2<f32>, lod: f32, repeat: f32 }
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var clamp_s: sampler;
@group(0) @binding(2) var repeat_s: sampler;
@group(0) @binding(3) var<storage, read> queries: array<Query>;
// Per query: the sample, textureGather of components 0 and 2 (level 0).
@group(0) @binding(4) var<storage, read_write> out: array<vec4<f32>>;
// textureNumLevels, textureDimensions(level 0), textureDimensions(level 1).
@group(0) @binding(5) var<storage, read_write> info: array<u32>;
// textureLoad of every texel of level 0, then of level 1.
@group(0) @binding(6) var<storage, read_write> loads: array<vec4<f32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i == 0u) {
        info[0] = textureNumLevels(tex);
        let d0 = textureDimensions(tex);
        let d1 = textureDimensions(tex, 1);
        info[1] = d0.x;
        info[2] = d0.y;
        info[3] = d1.x;
        info[4] = d1.y;
    }
    if (i < 256u) {
        loads[i] = textureLoad(tex, vec2<u32>(i % 16u, i / 16u), 0);
    } else if (i < 320u) {
        let j = i - 256u;
        loads[i] = textureLoad(tex, vec2<i32>(i32(j % 8u), i32(j / 8u)), 1i);
    }
    if (i >= arrayLength(&queries)) { return; }
    let q = queries[i];
    if (q.repeat != 0.0) {
        out[3u * i] = textureSampleLevel(tex, repeat_s, q.uv, q.lod);
        out[3u * i + 1u] = textureGather(0, tex, repeat_s, q.uv);
        out[3u * i + 2u] = textureGather(2, tex, repeat_s, q.uv);
    } else {
        out[3u * i] = textureSampleLevel(tex, clamp_s, q.uv, q.lod);
        out[3u * i + 1u] = textureGather(0, tex, clamp_s, q.uv);
        out[3u * i + 2u] = textureGather(2, tex, clamp_s, q.uv);
    }
}
"""


def _wrap(i, n, repeat):
    return np.mod(i, n) if repeat else np.clip(i, 0, n - 1)


def _bilinear(level, u, v, repeat):
    """Vulkan's linear filter of one level (h x w x 4 floats) at normalized (u, v)."""
    h, w, _ = level.shape
    x, y = u * w - 0.5, v * h - 0.5
    x0, y0 = int(np.floor(x)), int(np.floor(y))
    a, b = x - x0, y - y0
    xs = [_wrap(x0, w, repeat), _wrap(x0 + 1, w, repeat)]
    ys = [_wrap(y0, h, repeat), _wrap(y0 + 1, h, repeat)]
    return (
        (1 - a) * (1 - b) * level[ys[0], xs[0]]
        + a * (1 - b) * level[ys[0], xs[1]]
        + (1 - a) * b * level[ys[1], xs[0]]
        + a * b * level[ys[1], xs[1]]
    )


def _gather(level, u, v, repeat, comp):
    """textureGather: (i0, j1), (i1, j1), (i1, j0), (i0, j0) of component `comp`."""
    h, w, _ = level.shape
    x0, y0 = int(np.floor(u * w - 0.5)), int(np.floor(v * h - 0.5))
    i0, i1 = _wrap(x0, w, repeat), _wrap(x0 + 1, w, repeat)
    j0, j1 = _wrap(y0, h, repeat), _wrap(y0 + 1, h, repeat)
    return np.array([level[j1, i0, comp], level[j1, i1, comp], level[j0, i1, comp], level[j0, i0, comp]])


def sampled_texture(r):
    """An rgba8unorm 16x16 texture with 2 mip levels (each its own data, by write_texture):
    textureSampleLevel with linear samplers (clamp-to-edge and repeat) at levels 0, 1 and
    0.5, textureGather, textureNumLevels, textureDimensions (levels 0 and 1), textureLoad."""
    dev = r.device
    rng = np.random.default_rng(6)
    level0 = rng.integers(0, 256, (16, 16, 4), dtype=np.uint8)
    level1 = rng.integers(0, 256, (8, 8, 4), dtype=np.uint8)
    tex = dev.create_texture(
        size=(16, 16, 1),
        mip_level_count=2,
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST,
    )
    for mip, data in ((0, level0), (1, level1)):
        h, w, _ = data.shape
        dev.queue.write_texture(
            {"texture": tex, "mip_level": mip, "origin": (0, 0, 0)},
            data.tobytes(),
            {"offset": 0, "bytes_per_row": 4 * w, "rows_per_image": h},
            (w, h, 1),
        )
    samplers = [
        dev.create_sampler(
            address_mode_u=mode, address_mode_v=mode,
            mag_filter="linear", min_filter="linear", mipmap_filter="linear",
        )
        for mode in ("clamp-to-edge", "repeat")
    ]
    # (u, v, lod, repeat). Texel fractions kept away from 0 and 1 (for textureGather, whose
    # footprint is decided by floor(u * w - 0.5)); u, v beyond [0, 1] exercise the modes.
    queries = []
    for u, v in ((0.3, 0.6), (0.07, 0.93), (-0.2, 0.45), (1.27, -0.35), (0.52, 1.61), (2.71, 0.013)):
        for lod in (0.0, 1.0, 0.5):
            for rep in (0.0, 1.0):
                queries.append((u, v, lod, rep))
    q = np.array(queries, dtype=np.float32)
    n = len(q)
    pipeline = r.pipeline(SAMPLE)
    bq = r.storage(q.tobytes())
    out, info, loads = r.storage(bytes(48 * n)), r.storage(bytes(20)), r.storage(bytes(16 * 320))
    group = bind(r, pipeline, [tex.create_view(), samplers[0], samplers[1], bq, out, info, loads])
    r.dispatch(pipeline, group, (320 // 64, 1, 1))

    got_info = r.read(info, np.uint32).tolist()
    if got_info != [2, 16, 16, 8, 8]:
        return f"textureNumLevels, textureDimensions(0), (1) = {got_info}, expected [2, 16, 16, 8, 8]"
    l0, l1 = level0.astype(np.float64) / 255, level1.astype(np.float64) / 255
    got_loads = r.read(loads, np.float32).reshape(320, 4)
    why = first_mismatch(got_loads, np.concatenate([l0.reshape(256, 4), l1.reshape(64, 4)]), 1e-6)
    if why:
        return f"textureLoad (rows 0..255 level 0, 256.. level 1): {why}"
    got = r.read(out, np.float32).reshape(n, 3, 4)
    for k, (u, v, lod, rep) in enumerate(q.astype(np.float64)):
        u, v, lod, rep = float(u), float(v), float(lod), bool(rep)
        s0, s1 = _bilinear(l0, u, v, rep), _bilinear(l1, u, v, rep)
        sample = s0 if lod == 0 else s1 if lod == 1 else (1 - lod) * s0 + lod * s1
        what = f"(u, v) = ({u:.3f}, {v:.3f}), lod {lod}, {'repeat' if rep else 'clamp-to-edge'}"
        if np.max(np.abs(got[k, 0] - sample)) > 1 / 128:
            return f"textureSampleLevel at {what} = {got[k, 0]}, expected {sample.astype(np.float32)}"
        for j, comp in ((1, 0), (2, 2)):
            want = _gather(l0, u, v, rep, comp)
            if np.max(np.abs(got[k, j] - want)) > 1e-6:
                return f"textureGather({comp}) at {what} = {got[k, j]}, expected {want.astype(np.float32)}"
    return None


ADD_ONE = """
@group(0) @binding(0) var src: texture_2d_array<u32>;
@group(0) @binding(1) var dst: texture_storage_2d_array<r32uint, write>;

@compute @workgroup_size(8, 4, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let d = textureDimensions(src);
    if (gid.x >= d.x || gid.y >= d.y || gid.z >= textureNumLayers(src)) { return; }
    let p = vec2<i32>(gid.xy);
    let v = textureLoad(src, p, i32(gid.z), 0).x;
    textureStore(dst, p, i32(gid.z), vec4<u32>(v + 1u, 0u, 0u, 0u));
}
"""


def texture_copy(r):
    """write_texture into a 3-layer r32uint 2D array texture, a compute pass adds 1 into a
    second one (textureLoad -> textureStore), copy_texture_to_buffer of both (rows padded to
    256 bytes)."""
    dev = r.device
    w, h, layers = 20, 12, 3  # 80-byte rows: padded to 256 in the copies to buffers
    rng = np.random.default_rng(7)
    data = rng.integers(0, 0xFFFFFFFF, (layers, h, w), dtype=np.uint32, endpoint=True)
    usage = wgpu.TextureUsage.COPY_DST | wgpu.TextureUsage.COPY_SRC
    src = dev.create_texture(
        size=(w, h, layers), format=wgpu.TextureFormat.r32uint, usage=usage | wgpu.TextureUsage.TEXTURE_BINDING
    )
    dst = dev.create_texture(
        size=(w, h, layers), format=wgpu.TextureFormat.r32uint, usage=usage | wgpu.TextureUsage.STORAGE_BINDING
    )
    dev.queue.write_texture(
        {"texture": src, "mip_level": 0, "origin": (0, 0, 0)},
        data.tobytes(),
        {"offset": 0, "bytes_per_row": 4 * w, "rows_per_image": h},
        (w, h, layers),
    )
    pipeline = r.pipeline(ADD_ONE)
    group = bind(
        r, pipeline, [src.create_view(dimension="2d-array"), dst.create_view(dimension="2d-array")]
    )
    row = 256
    readbacks = [
        dev.create_buffer(size=row * h * layers, usage=wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.COPY_SRC)
        for _ in range(2)
    ]
    encoder = dev.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    cpass.set_bind_group(0, group)
    cpass.dispatch_workgroups((w + 7) // 8, (h + 3) // 4, layers)
    cpass.end()
    for tex, buf in zip((src, dst), readbacks):
        encoder.copy_texture_to_buffer(
            {"texture": tex, "mip_level": 0, "origin": (0, 0, 0)},
            {"buffer": buf, "offset": 0, "bytes_per_row": row, "rows_per_image": h},
            (w, h, layers),
        )
    dev.queue.submit([encoder.finish()])
    for what, buf, want in (("source", readbacks[0], data), ("result", readbacks[1], data + np.uint32(1))):
        got = r.read(buf, np.uint32).reshape(layers, h, row // 4)[:, :, :w]
        if not np.array_equal(got, want):
            l, y, x = (int(k) for k in np.argwhere(got != want)[0])
            n_bad = int(np.count_nonzero(got != want))
            return f"{what}: {n_bad} of {want.size} wrong, layer {l} ({x}, {y}) = {got[l, y, x]}, expected {want[l, y, x]}"
    return None


HALF_STORE = """
@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let d = textureDimensions(img);
    if (gid.x >= d.x / 2u || gid.y >= d.y) { return; }
    textureStore(img, vec2<i32>(gid.xy), vec4<f32>(vec4<u32>(gid.x, gid.y, 200u, 255u)) / 255.0);
}
"""


def texture_zero_init(r):
    """An rgba8unorm storage texture without COPY_DST usage, half written by textureStore,
    copied to a buffer: the other half must read as zeros. wgpu zero-initialises it before
    the compute pass with a render pass (a clearing load op, no draws), as it does every
    texture of a renderable format that has no COPY_DST usage. Last in PASSES: where the
    driver fails that render pass, wgpu-native loses the device and aborts the process."""
    dev = r.device
    w, h = 32, 16
    tex = dev.create_texture(
        size=(w, h, 1),
        format=wgpu.TextureFormat.rgba8unorm,
        usage=wgpu.TextureUsage.STORAGE_BINDING | wgpu.TextureUsage.COPY_SRC,
    )
    pipeline = r.pipeline(HALF_STORE)
    readback = dev.create_buffer(size=256 * h, usage=wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.COPY_SRC)
    encoder = dev.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipeline)
    cpass.set_bind_group(0, bind(r, pipeline, [tex.create_view()]))
    cpass.dispatch_workgroups(w // 8, h // 8)
    cpass.end()
    encoder.copy_texture_to_buffer(
        {"texture": tex, "mip_level": 0, "origin": (0, 0, 0)},
        {"buffer": readback, "offset": 0, "bytes_per_row": 256, "rows_per_image": h},
        (w, h, 1),
    )
    dev.queue.submit([encoder.finish()])
    got = r.read(readback, np.uint8).reshape(h, 256)[:, : 4 * w].reshape(h, w, 4)
    want = np.zeros((h, w, 4), dtype=np.uint8)
    y, x = np.mgrid[0:h, 0 : w // 2]
    want[:, : w // 2] = np.stack([x, y, np.full_like(x, 200), np.full_like(x, 255)], axis=-1)
    return first_mismatch(got, want)


PASSES = [
    ("saxpy", saxpy),
    ("workgroup-reduce", reduce),
    ("atomic-histogram", histogram),
    ("uniform-params", uniforms),
    ("one-submission", one_submission),
    ("storage-texture", storage_texture),
    ("sampled-texture", sampled_texture),
    ("texture-copy", texture_copy),
    ("texture-zero-init", texture_zero_init),  # last: see its comment
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--adapter", help="use the Vulkan adapter whose name contains this")
    parser.add_argument("--verbose", action="store_true", help="wgpu's debug log on stdout")
    parser.add_argument("passes", nargs="*", help="run only these passes")
    args = parser.parse_args()
    if args.verbose:
        logging.basicConfig(level=logging.DEBUG, stream=sys.stdout)
        wgpu.logger.setLevel(logging.DEBUG)

    set_instance_extras(backends=["Vulkan"], flags=["AllowUnderlyingNoncompliantAdapter"])
    adapters = [a for a in wgpu.gpu.enumerate_adapters_sync() if a.info["backend_type"] == "Vulkan"]
    if args.adapter:
        adapters = [a for a in adapters if args.adapter.lower() in a.info["device"].lower()]
    if not adapters:
        print(
            "NO ADAPTER: wgpu-native exposes no Vulkan adapter for this driver "
            "(run with --verbose for wgpu-hal's reason)"
        )
        return 2
    adapter = adapters[0]
    print(f"adapter: {adapter.info['device']} ({adapter.info['description']}), wgpu-native {wgpu_native.lib_version_info}")
    device = adapter.request_device_sync()
    runner = Runner(device)
    failed = ran = 0
    for name, fn in PASSES:
        if args.passes and name not in args.passes:
            continue
        ran += 1
        try:
            why = fn(runner)
        except Exception as e:  # a wgpu error is a failure of this pass, not of the script
            why = f"{type(e).__name__}: {e}"
        if why is None:
            print(f"PASS {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {why}")
    print(f"{ran - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
