#!/usr/bin/env bash
# What `meson install` gives a user works on its own (docs/libraries.md).
# Installs this build with --destdir into a temporary directory, then, from
# there only (no LD_LIBRARY_PATH, no source or build directory on any path):
# RUNPATHs, the plugin loading in gst-inspect-1.0, the exported symbols of
# the three binaries, one copy of the core, the pkg-config files, and an
# application built and run against them (sima-install-app.c). Prints TAP.
#
# The RUNPATHs are $ORIGIN-relative and the .pc files locate their prefix
# from their own directory, so the tree under --destdir is as usable as one
# installed with --prefix: the test needs no second configuration.
#
#   install.sh MESON BUILD_ROOT SOURCE_ROOT PREFIX LIBDIR INCLUDEDIR
#              PACKAGE_NAME PACKAGE_ORIGIN SANITIZE PRELOAD APP_SOURCE CC...
# LIBDIR and INCLUDEDIR are absolute (prefix included). SANITIZE is the
# build's b_sanitize ("none", "address,undefined", ...); PRELOAD is the
# sanitizer runtime uninstrumented programs (gst-inspect-1.0) must load
# first, or "".
set -u
meson=$1 build=$2 source=$3 prefix=$4 libdir=$5 includedir=$6
package_name=$7 package_origin=$8 sanitize=$9 preload=${10} app_source=${11}
shift 11
cc=("$@")

work=$(mktemp -d "${TMPDIR:-/tmp}/sima-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
ilib=$root$libdir
iinc=$root$includedir
plugin=$ilib/gstreamer-1.0/libgstsimakernels.so
kernels_so=$ilib/libsimakernels-1.0.so.0
ev74_so=$ilib/libsimaev74-1.0.so.0

n=0 failed=0
point() {  # ok(0/1) description [detail...]
  local ok=$1 what=$2
  shift 2
  n=$((n + 1))
  if [ "$ok" -eq 0 ]; then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what"
    failed=1
    local detail
    for detail in "$@"; do sed 's/^/# /' <<<"$detail"; done
  fi
}
finish() {
  echo "1..$n"
  exit "$failed"
}

# Nothing from the caller's environment may find the libraries for us
# (meson test points LD_LIBRARY_PATH at the build tree's libraries).
unset LD_LIBRARY_PATH LD_PRELOAD GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 \
  GST_PLUGIN_SYSTEM_PATH GST_PLUGIN_SYSTEM_PATH_1_0 GST_REGISTRY \
  GST_REGISTRY_1_0 PKG_CONFIG_SYSROOT_DIR DESTDIR

# 1. install
if out=$("$meson" install -C "$build" --no-rebuild --quiet --destdir "$root" 2>&1) \
    && [ -f "$plugin" ] && [ -f "$kernels_so" ] && [ -f "$ev74_so" ]; then
  point 0 "meson install --destdir installs the libraries and the plugin"
else
  point 1 "meson install --destdir installs the libraries and the plugin" \
    "$out" "expected $plugin, $kernels_so and $ev74_so"
  finish
fi

# 2. RUNPATHs: relative to the binary, never the build or source tree.
runpath() { readelf -d "$1" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p'; }
bad=()
for elf in "$plugin" "$ev74_so" "$kernels_so" "$root$prefix"/bin/*; do
  [ -f "$elf" ] || continue
  rp=$(runpath "$elf")
  case "$rp" in
    *"$build"* | *"$source"*) bad+=("$elf: RUNPATH $rp") ;;
  esac
done
rp_plugin=$(runpath "$plugin") rp_ev74=$(runpath "$ev74_so")
# shellcheck disable=SC2016  # the literal $ORIGIN
[ "$rp_plugin" = '$ORIGIN/..' ] || bad+=("plugin RUNPATH is '$rp_plugin', not \$ORIGIN/..")
# shellcheck disable=SC2016
[ "$rp_ev74" = '$ORIGIN' ] || bad+=("libsimaev74 RUNPATH is '$rp_ev74', not \$ORIGIN")
point ${#bad[@]} "RUNPATHs are \$ORIGIN-relative and name no build directory" \
  "${bad[@]}"

# 3. The plugin loads from the install tree alone: no system plugins, a
# fresh registry, scanned the usual way (gst-plugin-scanner, so a plugin
# that fails to load is blacklisted). gst-inspect-1.0 is not instrumented:
# in sanitizer builds it loads the runtime first (its own exit-time
# allocations are not ours to report).
inspect() {
  env GST_PLUGIN_SYSTEM_PATH_1_0= GST_PLUGIN_PATH_1_0="$ilib/gstreamer-1.0" \
    GST_REGISTRY_1_0="$work/registry-inspect.bin" \
    ${preload:+LD_PRELOAD="$preload"} \
    ${preload:+ASAN_OPTIONS=detect_leaks=0:abort_on_error=1} \
    gst-inspect-1.0 "$@" 2>&1
}
element=$(inspect simaquanttess) rc=$?
details=$(inspect simakernels)
blacklist=$(inspect -b)
bad=()
[ $rc -eq 0 ] || bad+=("gst-inspect-1.0 simaquanttess failed:" "$element")
case "$blacklist" in *libgstsimakernels*) bad+=("blacklisted:" "$blacklist") ;; esac
field() { sed -n "s/^ *$1  *//p" <<<"$details"; }
[ "$(field Filename)" = "$plugin" ] \
  || bad+=("not loaded from $plugin:" "$details")
point ${#bad[@]} "gst-inspect-1.0 loads the installed plugin, not blacklisted" \
  "${bad[@]}"

# 4. -Dpackage-name / -Dpackage-origin reach the plugin's descriptor.
bad=()
[ "$(field 'Binary package')" = "$package_name" ] \
  || bad+=("Binary package is not '$package_name'")
[ "$(field 'Origin URL')" = "$package_origin" ] \
  || bad+=("Origin URL is not '$package_origin'")
point ${#bad[@]} "the plugin shows package '$package_name', origin '$package_origin'" \
  "${bad[@]}" "$details"

# Exported symbols: names starting with '_' belong to the toolchain (the
# sanitizer runtimes add some), not to us.
exported() { nm -D --defined-only "$1" | awk '$3 !~ /^_/ { print $3 }' | sort -u; }

# 5. The plugin exports what GStreamer looks up and nothing else.
want=$'gst_plugin_simakernels_get_desc\ngst_plugin_simakernels_register'
got=$(exported "$plugin")
point "$([ "$got" = "$want" ]; echo $?)" \
  "the plugin exports only its descriptor functions ($(wc -l <<<"$got"))" \
  "exported:" "$got"

# The functions the installed headers declare (static inline ones are not
# exported): headers under DIR, preprocessed, minus EXCLUDE's names.
declared() {  # header-dir-filter(kernels|ev74)
  local h tu=$work/decl-$1.c
  : >"$tu"
  while IFS= read -r h; do
    case "$1:$h" in
      kernels:*/simaai/kernels/ev74/*) continue ;;
      ev74:*/simaai/kernels/ev74/*) ;;
      ev74:*) continue ;;
    esac
    echo "#include <${h#"$iinc/simakernels-1.0/"}>" >>"$tu"
  done < <(find "$iinc/simakernels-1.0/simaai" -name '*.h' | sort)
  "${cc[@]}" -E -P -I"$iinc/simakernels-1.0" "$tu" | tr '\n' ' ' >"$tu.i"
  comm -23 \
    <(grep -oE '\bsima_[a-z0-9_]+ *\(' "$tu.i" | tr -d ' (' | sort -u) \
    <(grep -oE 'static +inline +[^;{}()]*\bsima_[a-z0-9_]+ *\(' "$tu.i" \
      | grep -oE 'sima_[a-z0-9_]+ *\($' | tr -d ' (' | sort -u)
}
kernels_api=$(declared kernels)
ev74_api=$(comm -23 <(declared ev74) <(echo "$kernels_api"))

# libsimaev74's test-only hooks (src/ev74/testing/ev74_testing.h, never
# installed): exported so that tests in the plugin's process reach the
# devices the elements share, and the only exports beyond the public API.
# Its names: those its preprocessed text has and the installed device.h's
# (which it includes, with everything device.h includes) has not.
names_in() {  # include-line
  echo "$1" | "${cc[@]}" -E -P -I"$iinc/simakernels-1.0" -x c - \
    | tr '\n' ' ' | grep -oE '\bsima_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u
}
testing_api=$(comm -23 \
  <(names_in "#include \"$source/src/ev74/testing/ev74_testing.h\"") \
  <(names_in "#include <simaai/kernels/ev74/device.h>"))

# 6, 7. Each library exports exactly the functions its public headers
# declare (libsimaev74: and its testing hooks).
for lib in kernels ev74; do
  if [ $lib = kernels ]; then so=$kernels_so api=$kernels_api
  else so=$ev74_so api=$(sort -u <(echo "$ev74_api") <(echo "$testing_api")); fi
  got=$(exported "$so")
  extra=$(comm -13 <(echo "$api") <(echo "$got"))
  missing=$(comm -23 <(echo "$api") <(echo "$got"))
  point "$([ -z "$extra$missing" ] && [ -n "$api" ]; echo $?)" \
    "$(basename "$so" .so.0) exports exactly its public API ($(wc -l <<<"$got") functions)" \
    "exported, not declared in a public header:" "$extra" \
    "declared, not exported:" "$missing"
done

# 7b. The testing hooks are exactly the three of ev74_testing.h, and no
# private header is installed (nor declares them publicly).
bad=()
want_testing=$'sima_ev74_device_configure\nsima_ev74_job_cancel\nsima_ev74_testing_register_transport'
[ "$testing_api" = "$want_testing" ] \
  || bad+=("testing hooks are not the expected three:" "$testing_api")
leaked=$(find "$iinc" -name 'ev74_testing.h' -o -name 'transport.h' \
  -o -name 'device_private.h')
[ -z "$leaked" ] || bad+=("private headers installed:" "$leaked")
[ -z "$(comm -12 <(echo "$ev74_api") <(echo "$testing_api"))" ] \
  || bad+=("a testing hook is declared in a public header")
point ${#bad[@]} "libsimaev74's testing hooks ($(wc -l <<<"$testing_api")) are private: not in an installed header" \
  "${bad[@]}"

# 8. One copy of the core per process: the plugin and libsimaev74 use the
# shared core and define none of its functions (not even hidden copies).
core_functions=$(nm -g --defined-only "$ilib/libsimakernels-1.0.a" 2>/dev/null \
  | awk '$2 == "T" && $3 ~ /^sima_/ { print $3 }' | sort -u)
bad=()
[ -n "$core_functions" ] || bad+=("no functions in $ilib/libsimakernels-1.0.a")
for so in "$plugin" "$ev74_so"; do
  readelf -d "$so" | grep -q 'NEEDED.*\[libsimakernels-1.0.so.0\]' \
    || bad+=("$(basename "$so") does not link libsimakernels-1.0.so.0")
  if ! nm --defined-only "$so" >/dev/null 2>&1; then
    bad+=("$(basename "$so") has no symbol table (stripped): cannot check")
    continue
  fi
  copies=$(comm -12 <(echo "$core_functions") \
    <(nm --defined-only "$so" | awk '{ print $3 }' | sort -u))
  [ -z "$copies" ] || bad+=("$(basename "$so") embeds core functions:" "$copies")
done
point ${#bad[@]} "the plugin and libsimaev74 link the shared core and embed none of it" \
  "${bad[@]}"

# 9. pkg-config: the installed .pc files, relocated into the install tree.
export PKG_CONFIG_PATH="$ilib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
bad=()
for pc in simakernels-1.0 simaev74-1.0 gstreamer-sima-1.0; do
  dir=$(pkg-config --variable=includedir "$pc" 2>&1) \
    || { bad+=("pkg-config $pc: $dir"); continue; }
  [ "$(realpath -m "$dir")" = "$(realpath -m "$iinc")" ] \
    || bad+=("$pc: includedir $dir is not $iinc (a .pc that is not relocatable: configure with -Dpkgconfig.relocatable=true, the default of new build directories)")
done
pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-sima-1.0 2>/dev/null)
[ "$(realpath -m "$pluginsdir")" = "$(realpath -m "$ilib/gstreamer-1.0")" ] \
  || bad+=("gstreamer-sima-1.0 pluginsdir '$pluginsdir' is not $ilib/gstreamer-1.0")
point ${#bad[@]} "simakernels-1.0, simaev74-1.0 and gstreamer-sima-1.0 resolve into the install tree" \
  "${bad[@]}"
[ ${#bad[@]} -eq 0 ] || finish

# 10. An application builds with the pkg-config flags alone, with
# -fvisibility=hidden as well (the public headers must give the libraries'
# functions default visibility for its calls to link) and the build's
# sanitizers. -rpath: an application installed outside the default search
# path says where its libraries are; libsimaev74 finds the core itself.
san_flags=()
[ "$sanitize" = none ] || san_flags=("-fsanitize=$sanitize")
app_libdir=$(realpath "$(pkg-config --variable=libdir simaev74-1.0)")
# shellcheck disable=SC2046  # pkg-config's flags are words
out=$("${cc[@]}" -std=c11 -Wall -Wextra -Werror -fvisibility=hidden \
  "${san_flags[@]}" "$app_source" -o "$work/sima-install-app" \
  $(pkg-config --cflags --libs simaev74-1.0 gstreamer-sima-1.0) \
  -Wl,-rpath,"$app_libdir" 2>&1)
point $? "an application builds against the installed tree with pkg-config only" \
  "$out"
[ -x "$work/sima-install-app" ] || finish

# 11. ... and runs: the core and the emulator through the libraries, the
# installed plugin (from the .pc's pluginsdir, system plugins for fakesink)
# and the timing meta header.
# In sanitizer builds the registry is scanned in-process: the application
# is instrumented, gst-plugin-scanner is not (point 3 covered the scanner).
fork=yes
[ "$sanitize" = none ] || fork=no
out=$(env GST_PLUGIN_PATH_1_0="$(realpath "$pluginsdir")" \
  GST_REGISTRY_1_0="$work/registry-app.bin" GST_REGISTRY_FORK=$fork \
  "$work/sima-install-app" "$(realpath "$pluginsdir")" 2>&1)
rc=$?
point "$([ $rc -eq 0 ] && ! grep -q '^not ok' <<<"$out"; echo $?)" \
  "the application runs against the installed libraries and plugin" \
  "exit status $rc" "$out"
[ $rc -ne 0 ] || sed 's/^/# /' <<<"$out"

finish
