#!/usr/bin/env bash
# Makes the seed corpora of the fuzz targets in fuzz/corpus/<target>/ (git-ignored, where
# `cargo fuzz run <target>` reads and grows its corpus). docs/FUZZING.md says what each is.
#   spirv, spirv_llvm: the SPIR-V corpus of tests/spirv (glslangValidator, spirv-as)
#   elf:               small OpenCL kernels built by clang-19 (+ ld.lld-19) for gfx1100 as
#                      code object v4, v5 and v6, wave32 and wave64, ET_DYN and ET_REL
#   pm4, pcache:       written by the harness itself (SOFTNAVI_FUZZ_SEEDS): PM4 at its
#                      buffers' addresses, cache data with the key of its pipeline
#   decode:            the kernels' .text sections
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
corpus=$PWD/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$corpus"/{spirv,spirv_llvm,elf,decode}

for src in ../tests/spirv/*/*.comp ../tests/spirv/*/*.spvasm; do
    name=$(basename "$(dirname "$src")")-$(basename "${src%.*}")
    env=$(head -1 "$src" | sed -n 's/^[/; ]*target-env: *//p')
    env=${env:-vulkan1.1}
    case $src in
        *.comp) glslangValidator -V --target-env "$env" "$src" -o "$tmp/$name.spv" >/dev/null ;;
        *) spirv-as --target-env "$env" "$src" -o "$tmp/$name.spv" ;;
    esac
    cp "$tmp/$name.spv" "$corpus/spirv/$name"
    cp "$tmp/$name.spv" "$corpus/spirv_llvm/$name"
done

cat > "$tmp/k.cl" <<'CL'
__kernel void saxpy(__global const float *x, __global float *y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global const uint *in, __global uint *out, __local uint *tmp) {
    size_t l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) tmp[l] += tmp[l + s];
    }
    if (l == 0) atomic_add(out, tmp[0]);
}
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void scratch(__global uint *out, uint n) {
    uint v[32];
    for (uint i = 0; i < 32; i++) v[i] = i * n;
    out[get_global_id(0)] = v[(get_global_id(0) + n) % 32] + get_num_groups(0) + get_global_size(1);
}
CL
for cov in 4 5 6; do
    for wave in 32 64; do
        flags=(-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2
            -Xclang -finclude-default-header -include ../tests/opencl/prelude.h "-DCOV=$cov"
            "-mcode-object-version=$cov")
        [ "$wave" = 64 ] && flags+=(-mwavefrontsize64)
        clang-19 "${flags[@]}" -c "$tmp/k.cl" -o "$tmp/k.o"
        ld.lld-19 -shared --no-undefined "$tmp/k.o" -o "$tmp/k.so"
        cp "$tmp/k.o" "$corpus/elf/cl-v$cov-w$wave-rel"
        cp "$tmp/k.so" "$corpus/elf/cl-v$cov-w$wave-dyn"
        llvm-objcopy-19 -O binary --only-section=.text "$tmp/k.so" "$corpus/decode/cl-v$cov-w$wave"
    done
done

for target in pm4 pcache; do
    SOFTNAVI_FUZZ_SEEDS=$corpus cargo +nightly fuzz run -O -a --target-dir "$CARGO_TARGET_DIR" "$target" -- -runs=0 >/dev/null 2>&1 || {
        echo "seeds.sh: the $target harness failed to write its seeds" >&2
        exit 1
    }
done
du -sh "$corpus"/*
