#!/bin/sh
# Builds gen.cpp against Mesa's addrlib and regenerates gpu/src/addr/patterns.rs,
# gpu/tests/data/swizzle_vectors.txt, gpu/tests/data/msaa_preferred.txt and
# gpu/tests/data/msaa_depth_preferred.txt. ADDRLIB: a Mesa checkout's src/amd/addrlib (the one
# used for the committed files: src/amd/addrlib of a Mesa tree of July 2024, the GitHub
# mirror alexvorxx/zink-xlib-termux at c1567e96099df1328e8177445f84ea6a64d4bb7e, with
# gfx11addrlib.cpp's 256KB modes). Needs g++; takes a minute or two.
# Usage: ADDRLIB=/path/to/mesa/src/amd/addrlib scripts/addrlib-oracle/build.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
out=${TMPDIR:-/tmp}/softnavi-addrlib
mkdir -p "$out/obj"
inc="-I$ADDRLIB/inc -I$ADDRLIB/src -I$ADDRLIB/src/core"
for d in gfx9 r800 gfx10 gfx11 gfx12; do inc="$inc -I$ADDRLIB/src/chip/$d"; done
for f in "$ADDRLIB"/src/addrinterface.cpp "$ADDRLIB"/src/core/*.cpp "$ADDRLIB"/src/gfx*/*.cpp "$ADDRLIB"/src/r800/*.cpp; do
  g++ -O1 -w -c -DADDR_FASTCALL= -DLITTLEENDIAN_CPU $inc "$f" -o "$out/obj/$(basename "$f" .cpp).o"
done
g++ -O1 -w -DADDR_FASTCALL= -DLITTLEENDIAN_CPU $inc "$here/gen.cpp" "$out"/obj/*.o -o "$out/gen"
"$out/gen" "$root/gpu/src/addr/patterns.rs" "$root/gpu/tests/data/swizzle_vectors.txt" \
  "$root/gpu/tests/data/msaa_preferred.txt" "$root/gpu/tests/data/msaa_depth_preferred.txt"
