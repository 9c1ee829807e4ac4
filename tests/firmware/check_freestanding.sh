#!/usr/bin/env bash
# The firmware image's closure (firmware/ plus the core sources it reuses,
# with firmware/fw_status.c instead of the core's printf-based messages),
# compiled freestanding as C99, may need nothing from libc beyond
# memcpy-like helpers. Prints TAP.
#
#   check_freestanding.sh CC SOURCE_ROOT SOURCE...
# CC is the build's compiler command as one word (it may carry options, as
# "ccache gcc" or "gcc -m32" do): the image is checked for the target the
# build is for (i686-linux-gnu-gcc in the 32-bit build). The
# sources are meson's lists (firmware_sources, fw_status.c and
# kernels_firmware_sources), so the check follows the build.
set -u
read -r -a cc <<< "$1"
root=$2
shift 2
sources="$*"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

allowed="memcpy memset memmove memcmp strlen strcmp"
# Not libc: the compiler's runtime (libgcc), which every freestanding image
# links. On a 32-bit target each 64-bit division or remainder of the
# geometry is one of these calls (docs/ev74.md, "32-bit build").
runtime="__divdi3 __moddi3 __udivdi3 __umoddi3 __divmoddi4 __udivmoddi4"

objs=""
for s in $sources; do
  o="$work/$(basename "$s" .c).o"
  if ! "${cc[@]}" -std=c99 -ffreestanding -fno-stack-protector -fno-pic -O2 \
      -Wall -Wextra -Werror -I"$root/src/kernels/include" -I"$root/src/kernels" \
      -I"$root/src/ev74/include" -I"$root/firmware" -c "$s" -o "$o"; then
    echo "not ok 1 - $s compiles freestanding as C99"
    echo "1..1"
    exit 1
  fi
  objs="$objs $o"
done
echo "ok 1 - $(echo $sources | wc -w) sources compile freestanding as C99"
# the compiler driver links for its own target (ld alone would assume the
# build machine's: elf_x86_64 for i686 objects)
if ! "${cc[@]}" -r -nostdlib -o "$work/firmware.o" $objs; then
  echo "not ok 2 - the firmware image links (relocatable)"
  echo "1..2"
  exit 1
fi
undefined=$(nm -u "$work/firmware.o" | awk '{print $2}' | sort -u)
extra="" libc="" rt=""
for sym in $undefined; do
  case " $allowed " in
    *" $sym "*) libc="$libc $sym" ;;
    *) case " $runtime " in
         *" $sym "*) rt="$rt $sym" ;;
         *) extra="$extra $sym" ;;
       esac ;;
  esac
done
if [ -z "$extra" ]; then
  echo "ok 2 - the firmware image needs only:$libc${rt:+; compiler runtime:$rt}"
else
  echo "not ok 2 - the firmware image needs libc symbols:$extra"
fi
echo "1..2"
[ -z "$extra" ]
