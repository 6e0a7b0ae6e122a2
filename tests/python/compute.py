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


PASSES = [
    ("saxpy", saxpy),
    ("workgroup-reduce", reduce),
    ("atomic-histogram", histogram),
    ("uniform-params", uniforms),
    ("one-submission", one_submission),
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
