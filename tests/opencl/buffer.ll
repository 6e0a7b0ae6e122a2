; Buffer (MUBUF/MTBUF) kernels that OpenCL C cannot express with clang-19's builtins
; (structured buffers, buffer atomics, typed buffers), as LLVM IR calling the
; llvm.amdgcn.*.ptr.buffer.* intrinsics on resources made from the kernel's global pointer
; arguments (llvm.amdgcn.make.buffer.rsrc). Built by build.rs like the .cl files (clang-19
; -x ir; no target-features or code-object-version module flag here, so that
; -mwavefrontsize64 and -mcode-object-version apply). Workgroups of 64; the CPU references
; are in tests/src/bin/clkernels.rs (memory_cases).
;
; V# dword 3 values: 0x30016fac is what the ICD writes for storage buffers (dst_sel XYZW,
; format 32_FLOAT, oob_select 3 = raw, byte range check); 0x10016fac has oob_select 1
; (structured: the index is checked against num_records).

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1), i16, i32, i32)

define internal i32 @gid() alwaysinline {
  %w = call i32 @llvm.amdgcn.workgroup.id.x()
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = shl i32 %w, 6
  %g = add i32 %b, %t
  ret i32 %g
}

; ---- structured buffers: idxen, idxen + offen, index range check (oob_select 1) -----------

declare <4 x i32> @llvm.amdgcn.struct.ptr.buffer.load.v4i32(ptr addrspace(8), i32, i32, i32, i32)
declare i32 @llvm.amdgcn.struct.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32, i32)
declare <2 x i32> @llvm.amdgcn.struct.ptr.buffer.load.v2i32(ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.ptr.buffer.store.v4i32(<4 x i32>, ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.ptr.buffer.store.i16(i16, ptr addrspace(8), i32, i32, i32, i32)

; R[g] = A[g] + (A[g ^ 1].y, A[g].(g & 3), A[g ^ 1].y, lo16(A[g].(g & 3))) over n records
; of 16 bytes (items from n on: loads give 0, stores are dropped); R2[g].x (2 bytes) = the low half of A[g].w.
define amdgpu_kernel void @buffer_struct(ptr addrspace(1) %A, ptr addrspace(1) %R, ptr addrspace(1) %R2, i32 %n) !reqd_work_group_size !0 {
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 16, i32 %n, i32 268525484)
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 16, i32 %n, i32 268525484)
  %rr2 = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R2, i16 16, i32 %n, i32 268525484)
  %v = call <4 x i32> @llvm.amdgcn.struct.ptr.buffer.load.v4i32(ptr addrspace(8) %ra, i32 %g, i32 0, i32 0, i32 0)
  %g1 = xor i32 %g, 1
  %w = call i32 @llvm.amdgcn.struct.ptr.buffer.load.i32(ptr addrspace(8) %ra, i32 %g1, i32 4, i32 0, i32 0)
  %k = and i32 %g, 3
  %off = shl i32 %k, 2
  %x = call i32 @llvm.amdgcn.struct.ptr.buffer.load.i32(ptr addrspace(8) %ra, i32 %g, i32 %off, i32 0, i32 0)
  %xl = and i32 %x, 65535
  %a0 = insertelement <4 x i32> poison, i32 %w, i32 0
  %a1 = insertelement <4 x i32> %a0, i32 %x, i32 1
  %a2 = insertelement <4 x i32> %a1, i32 %w, i32 2
  %a3 = insertelement <4 x i32> %a2, i32 %xl, i32 3
  %s = add <4 x i32> %v, %a3
  call void @llvm.amdgcn.struct.ptr.buffer.store.v4i32(<4 x i32> %s, ptr addrspace(8) %rr, i32 %g, i32 0, i32 0, i32 0)
  %vw = extractelement <4 x i32> %v, i32 3
  %h = trunc i32 %vw to i16
  call void @llvm.amdgcn.struct.ptr.buffer.store.i16(i16 %h, ptr addrspace(8) %rr2, i32 %g, i32 0, i32 0, i32 0)
  ret void
}

; ---- raw buffer atomics ----------------------------------------------------------------------

declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.sub.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.and.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.or.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.xor.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.smin.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.smax.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.umin.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.umax.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.inc.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.dec.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.swap.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i32(i32, i32, ptr addrspace(8), i32, i32, i32)

; Counters C[0..12] (bytes 0..52) as global_atomics: add, sub, and, or, xor, min, max,
; min_u, max_u, inc (limit 9), dec (limit 37), a compare-and-swap multiply loop (no
; return but for the loop); then with return: R[2g] = add 1 on C[12] (a slot), R[2g+1] =
; swap a into C[13] (soffset 52, offset 0: the soffset register carries the address).
define amdgpu_kernel void @buffer_atomics(ptr addrspace(1) %A, ptr addrspace(1) %C, ptr addrspace(1) %R, i32 %n) !reqd_work_group_size !0 {
entry:
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 0, i32 %n, i32 805400492)
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %C, i16 0, i32 64, i32 805400492)
  %n2 = shl i32 %n, 1
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 0, i32 %n2, i32 805400492)
  %g4 = shl i32 %g, 2
  %a = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %ra, i32 %g4, i32 0, i32 0)
  %bit = and i32 %g, 31
  %m1 = shl i32 1, %bit
  %m2 = xor i32 %m1, -1
  %andv = or i32 %m2, %a
  %sh = urem i32 %g, 27
  %m3 = shl i32 17, %sh
  %orv = and i32 %a, %m3
  %r0 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 %a, ptr addrspace(8) %rc, i32 0, i32 0, i32 0)
  %r1 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.sub.i32(i32 %a, ptr addrspace(8) %rc, i32 4, i32 0, i32 0)
  %r2 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.and.i32(i32 %andv, ptr addrspace(8) %rc, i32 8, i32 0, i32 0)
  %r3 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.or.i32(i32 %orv, ptr addrspace(8) %rc, i32 12, i32 0, i32 0)
  %r4 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.xor.i32(i32 %a, ptr addrspace(8) %rc, i32 16, i32 0, i32 0)
  %r5 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.smin.i32(i32 %a, ptr addrspace(8) %rc, i32 20, i32 0, i32 0)
  %r6 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.smax.i32(i32 %a, ptr addrspace(8) %rc, i32 24, i32 0, i32 0)
  %r7 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.umin.i32(i32 %a, ptr addrspace(8) %rc, i32 28, i32 0, i32 0)
  %r8 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.umax.i32(i32 %a, ptr addrspace(8) %rc, i32 32, i32 0, i32 0)
  %r9 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.inc.i32(i32 9, ptr addrspace(8) %rc, i32 36, i32 0, i32 0)
  %r10 = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.dec.i32(i32 37, ptr addrspace(8) %rc, i32 40, i32 0, i32 0)
  %a2 = shl i32 %a, 1
  %odd = or i32 %a2, 1
  %init = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rc, i32 44, i32 0, i32 1)
  br label %loop
loop:
  %old = phi i32 [ %init, %entry ], [ %seen, %loop ]
  %new = mul i32 %old, %odd
  %seen = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i32(i32 %new, i32 %old, ptr addrspace(8) %rc, i32 44, i32 0, i32 0)
  %done = icmp eq i32 %seen, %old
  br i1 %done, label %out, label %loop
out:
  %slot = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 1, ptr addrspace(8) %rc, i32 48, i32 0, i32 0)
  %prev = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.swap.i32(i32 %a, ptr addrspace(8) %rc, i32 0, i32 52, i32 0)
  %o = shl i32 %g, 3
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %slot, ptr addrspace(8) %rr, i32 %o, i32 0, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %prev, ptr addrspace(8) %rr, i32 %o, i32 4, i32 0)
  ret void
}

declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.load.i64(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i64(i64, ptr addrspace(8), i32, i32, i32)

declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.sub.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.and.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.or.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.xor.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.smin.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.smax.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.umin.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.umax.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.inc.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.dec.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.swap.i64(i64, ptr addrspace(8), i32, i32, i32)
declare i64 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i64(i64, i64, ptr addrspace(8), i32, i32, i32)

; The same with 64-bit counters C[0..13] (bytes 0..104); R[g] = the swapped-out value.
define amdgpu_kernel void @buffer_atomics64(ptr addrspace(1) %A, ptr addrspace(1) %C, ptr addrspace(1) %R, i32 %n) !reqd_work_group_size !0 {
entry:
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 0, i32 %n, i32 805400492)
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %C, i16 0, i32 112, i32 805400492)
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 0, i32 %n, i32 805400492)
  %g8 = shl i32 %g, 3
  %a = call i64 @llvm.amdgcn.raw.ptr.buffer.load.i64(ptr addrspace(8) %ra, i32 %g8, i32 0, i32 0)
  %bit32 = and i32 %g, 63
  %bit = zext i32 %bit32 to i64
  %m1 = shl i64 1, %bit
  %m2 = xor i64 %m1, -1
  %andv = or i64 %m2, %a
  %sh32 = urem i32 %g, 59
  %sh = zext i32 %sh32 to i64
  %m3 = shl i64 17, %sh
  %orv = and i64 %a, %m3
  %r0 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i64(i64 %a, ptr addrspace(8) %rc, i32 0, i32 0, i32 0)
  %r1 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.sub.i64(i64 %a, ptr addrspace(8) %rc, i32 8, i32 0, i32 0)
  %r2 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.and.i64(i64 %andv, ptr addrspace(8) %rc, i32 16, i32 0, i32 0)
  %r3 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.or.i64(i64 %orv, ptr addrspace(8) %rc, i32 24, i32 0, i32 0)
  %r4 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.xor.i64(i64 %a, ptr addrspace(8) %rc, i32 32, i32 0, i32 0)
  %r5 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.smin.i64(i64 %a, ptr addrspace(8) %rc, i32 40, i32 0, i32 0)
  %r6 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.smax.i64(i64 %a, ptr addrspace(8) %rc, i32 48, i32 0, i32 0)
  %r7 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.umin.i64(i64 %a, ptr addrspace(8) %rc, i32 56, i32 0, i32 0)
  %r8 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.umax.i64(i64 %a, ptr addrspace(8) %rc, i32 64, i32 0, i32 0)
  %r9 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.inc.i64(i64 9, ptr addrspace(8) %rc, i32 72, i32 0, i32 0)
  %r10 = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.dec.i64(i64 37, ptr addrspace(8) %rc, i32 80, i32 0, i32 0)
  %a2 = shl i64 %a, 1
  %odd = or i64 %a2, 1
  %init = call i64 @llvm.amdgcn.raw.ptr.buffer.load.i64(ptr addrspace(8) %rc, i32 88, i32 0, i32 1)
  br label %loop
loop:
  %old = phi i64 [ %init, %entry ], [ %seen, %loop ]
  %new = mul i64 %old, %odd
  %seen = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i64(i64 %new, i64 %old, ptr addrspace(8) %rc, i32 88, i32 0, i32 0)
  %done = icmp eq i64 %seen, %old
  br i1 %done, label %out, label %loop
out:
  %prev = call i64 @llvm.amdgcn.raw.ptr.buffer.atomic.swap.i64(i64 %a, ptr addrspace(8) %rc, i32 96, i32 0, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.i64(i64 %prev, ptr addrspace(8) %rr, i32 %g8, i32 0, i32 0)
  ret void
}

declare float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float, ptr addrspace(8), i32, i32, i32)
declare float @llvm.amdgcn.raw.ptr.buffer.atomic.fmin.f32(float, ptr addrspace(8), i32, i32, i32)
declare float @llvm.amdgcn.raw.ptr.buffer.atomic.fmax.f32(float, ptr addrspace(8), i32, i32, i32)
declare float @llvm.amdgcn.raw.ptr.buffer.load.f32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.f32(float, ptr addrspace(8), i32, i32, i32)

; Float buffer atomics on C[0..3]: add a, min a, max a (no return); R[g] = add 1.0 to C[3]
; with return.
define amdgpu_kernel void @buffer_float_atomics(ptr addrspace(1) %A, ptr addrspace(1) %C, ptr addrspace(1) %R, i32 %n) !reqd_work_group_size !0 {
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 0, i32 %n, i32 805400492)
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %C, i16 0, i32 16, i32 805400492)
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 0, i32 %n, i32 805400492)
  %g4 = shl i32 %g, 2
  %a = call float @llvm.amdgcn.raw.ptr.buffer.load.f32(ptr addrspace(8) %ra, i32 %g4, i32 0, i32 0)
  %r0 = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float %a, ptr addrspace(8) %rc, i32 0, i32 0, i32 0)
  %r1 = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fmin.f32(float %a, ptr addrspace(8) %rc, i32 4, i32 0, i32 0)
  %r2 = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fmax.f32(float %a, ptr addrspace(8) %rc, i32 8, i32 0, i32 0)
  %r3 = call float @llvm.amdgcn.raw.ptr.buffer.atomic.fadd.f32(float 1.0, ptr addrspace(8) %rc, i32 12, i32 0, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.f32(float %r3, ptr addrspace(8) %rr, i32 %g4, i32 0, i32 0)
  ret void
}

; ---- formatted MUBUF loads and stores: the format comes from the V# ------------------------

declare <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f32(ptr addrspace(8), i32, i32, i32)
declare <4 x half> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f16(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.format.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.v4f16(<4 x half>, ptr addrspace(8), i32, i32, i32)

; A and R have V#s with format 8_8_8_8_UNORM (42; dword 3 = 0x3002afac): per item g, the
; dword at 4g as four floats to F[g] (buffer_load_format_xyzw), as four halves to H[g]
; (buffer_load_format_d16_xyzw), and the floats in reverse order back to R (n bytes) at 4g
; (buffer_store_format_xyzw).
define amdgpu_kernel void @buffer_format(ptr addrspace(1) %A, ptr addrspace(1) %F, ptr addrspace(1) %H, ptr addrspace(1) %R, i32 %n) !reqd_work_group_size !0 {
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 0, i32 %n, i32 805482412)
  %n4 = shl i32 %n, 2
  %rf = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %F, i16 0, i32 %n4, i32 805400492)
  %n2 = shl i32 %n, 1
  %rh = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %H, i16 0, i32 %n2, i32 805400492)
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 0, i32 %n, i32 805482412)
  %o = shl i32 %g, 2
  %v = call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f32(ptr addrspace(8) %ra, i32 %o, i32 0, i32 0)
  %h = call <4 x half> @llvm.amdgcn.raw.ptr.buffer.load.format.v4f16(ptr addrspace(8) %ra, i32 %o, i32 0, i32 0)
  %o16 = shl i32 %g, 4
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float> %v, ptr addrspace(8) %rf, i32 %o16, i32 0, i32 0)
  %o8 = shl i32 %g, 3
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4f16(<4 x half> %h, ptr addrspace(8) %rh, i32 %o8, i32 0, i32 0)
  %rev = shufflevector <4 x float> %v, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  call void @llvm.amdgcn.raw.ptr.buffer.store.format.v4f32(<4 x float> %rev, ptr addrspace(8) %rr, i32 %o, i32 0, i32 0)
  ret void
}

; ---- typed buffers (MTBUF) -------------------------------------------------------------------

declare <4 x float> @llvm.amdgcn.raw.ptr.tbuffer.load.v4f32(ptr addrspace(8), i32, i32, i32, i32)
declare <2 x i32> @llvm.amdgcn.raw.ptr.tbuffer.load.v2i32(ptr addrspace(8), i32, i32, i32, i32)
declare <4 x i32> @llvm.amdgcn.struct.ptr.tbuffer.load.v4i32(ptr addrspace(8), i32, i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.tbuffer.store.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.tbuffer.store.v2i32(<2 x i32>, ptr addrspace(8), i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.ptr.tbuffer.store.v4i32(<4 x i32>, ptr addrspace(8), i32, i32, i32, i32, i32)

; Per 16-byte record g of A: bytes 0..3 as 8_8_8_8_UNORM (format 42), bytes 4..7 as
; 16_16_SINT (28), bytes 8..15 as 32_32_UINT (48), the record as 8_8_8_8_UINT (46) through
; a structured resource (stride 16). F[g] = the four unorm floats; R gets them back as
; 8_8_8_8_UNORM at byte 0, the sint pair + 1 as 16_16_SINT at 4, the uint pair swapped as
; 32_32_UINT at 8; R2[g] = the four uint bytes of the record, + 1, as 8_8_8_8_UINT.
define amdgpu_kernel void @tbuffer(ptr addrspace(1) %A, ptr addrspace(1) %F, ptr addrspace(1) %R, ptr addrspace(1) %R2, i32 %n) !reqd_work_group_size !0 {
  %g = call i32 @gid()
  %ra = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 0, i32 %n, i32 805400492)
  %recs = lshr i32 %n, 4
  %sa = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %A, i16 16, i32 %recs, i32 268525484)
  %rf = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %F, i16 0, i32 %n, i32 805400492)
  %rr = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R, i16 0, i32 %n, i32 805400492)
  %sr2 = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p1(ptr addrspace(1) %R2, i16 16, i32 %recs, i32 268525484)
  %o = shl i32 %g, 4
  %un = call <4 x float> @llvm.amdgcn.raw.ptr.tbuffer.load.v4f32(ptr addrspace(8) %ra, i32 %o, i32 0, i32 42, i32 0)
  %si = call <2 x i32> @llvm.amdgcn.raw.ptr.tbuffer.load.v2i32(ptr addrspace(8) %ra, i32 %o, i32 4, i32 28, i32 0)
  %o8 = add i32 %o, 8
  %ui = call <2 x i32> @llvm.amdgcn.raw.ptr.tbuffer.load.v2i32(ptr addrspace(8) %ra, i32 %o8, i32 0, i32 48, i32 0)
  %b4 = call <4 x i32> @llvm.amdgcn.struct.ptr.tbuffer.load.v4i32(ptr addrspace(8) %sa, i32 %g, i32 0, i32 0, i32 46, i32 0)
  call void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float> %un, ptr addrspace(8) %rf, i32 %o, i32 0, i32 0)
  call void @llvm.amdgcn.raw.ptr.tbuffer.store.v4f32(<4 x float> %un, ptr addrspace(8) %rr, i32 %o, i32 0, i32 42, i32 0)
  %si1 = add <2 x i32> %si, <i32 1, i32 1>
  call void @llvm.amdgcn.raw.ptr.tbuffer.store.v2i32(<2 x i32> %si1, ptr addrspace(8) %rr, i32 %o, i32 4, i32 28, i32 0)
  %uis = shufflevector <2 x i32> %ui, <2 x i32> poison, <2 x i32> <i32 1, i32 0>
  call void @llvm.amdgcn.raw.ptr.tbuffer.store.v2i32(<2 x i32> %uis, ptr addrspace(8) %rr, i32 %o8, i32 0, i32 48, i32 0)
  %b41 = add <4 x i32> %b4, <i32 1, i32 1, i32 1, i32 1>
  call void @llvm.amdgcn.struct.ptr.tbuffer.store.v4i32(<4 x i32> %b41, ptr addrspace(8) %sr2, i32 %g, i32 0, i32 0, i32 46, i32 0)
  ret void
}

declare void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float>, ptr addrspace(8), i32, i32, i32)

!0 = !{i32 64, i32 1, i32 1}
