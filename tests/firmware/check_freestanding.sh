#!/usr/bin/env bash
# The firmware image's closure (firmware/ plus the core sources it reuses,
# with firmware/fw_status.c instead of the core's printf-based messages),
# compiled freestanding as C99, may need nothing from libc beyond
# memcpy-like helpers. Prints TAP.
#
#   check_freestanding.sh CC SOURCE_ROOT SOURCE...
# The sources are meson's lists (firmware_sources, fw_status.c and
# kernels_firmware_sources), so the check follows the build.
set -u
cc=$1 root=$2
shift 2
sources="$*"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

allowed="memcpy memset memmove memcmp strlen strcmp"

objs=""
for s in $sources; do
  o="$work/$(basename "$s" .c).o"
  if ! "$cc" -std=c99 -ffreestanding -fno-stack-protector -fno-pic -O2 \
      -Wall -Wextra -Werror -I"$root/src/kernels/include" -I"$root/src/kernels" \
      -I"$root/src/ev74/include" -I"$root/firmware" -c "$s" -o "$o"; then
    echo "not ok 1 - $s compiles freestanding as C99"
    echo "1..1"
    exit 1
  fi
  objs="$objs $o"
done
echo "ok 1 - $(echo $sources | wc -w) sources compile freestanding as C99"
ld -r -o "$work/firmware.o" $objs
undefined=$(nm -u "$work/firmware.o" | awk '{print $2}' | sort -u)
extra=""
for sym in $undefined; do
  case " $allowed " in *" $sym "*) ;; *) extra="$extra $sym" ;; esac
done
if [ -z "$extra" ]; then
  echo "ok 2 - the firmware image needs only:" $undefined
else
  echo "not ok 2 - the firmware image needs libc symbols:$extra"
fi
echo "1..2"
[ -z "$extra" ]
