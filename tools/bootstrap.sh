# shellcheck shell=bash
# Sourced by tools/test.sh and tools/demo.sh: installs the Debian 12 packages
# the project needs when any is missing. The list lives here and only here.

SIMA_DEBIAN_PACKAGES=(
  build-essential meson ninja-build pkg-config
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base
  libdrm-dev valgrind
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  libxnnpack-dev libpthreadpool-dev
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386
)

sima_bootstrap() {
  local missing=() pkg sudo=""
  for pkg in "${SIMA_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  # As root (CI: a fresh Debian 12) apt-get runs directly and sudo, which a
  # minimal image lacks, is never called; other users need it. Nothing else
  # in tools/test.sh needs privileges (tests/install installs into a
  # temporary --destdir).
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2
      return 1
    }
    sudo="sudo"
  fi
  echo "bootstrap: installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
}
