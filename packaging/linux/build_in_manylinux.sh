#!/usr/bin/env bash
# The Linux build for old systems (issue 46): built where glibc is 2.28, so the program runs on
# Debian 10+, Ubuntu 20.04+, RHEL/Alma/Rocky 8+ (tools/linux_reach.py's table).
#
#   packaging/linux/build_in_manylinux.sh           on a host with docker (GitHub's ubuntu runners):
#                                                   runs the second form in the container
#   packaging/linux/build_in_manylinux.sh --inside  inside quay.io/pypa/manylinux_2_28_x86_64
#
# Where: the manylinux_2_28 image (AlmaLinux 8, glibc 2.28, its libstdc++ from GCC 8). Which
# Python: not the image's /opt/python builds (static, without libpython: PyInstaller cannot
# freeze them), nor AlmaLinux's python3.11 (it links OpenSSL 1.1.1, out of support since 2023),
# but a python-build-standalone CPython 3.11 installed by uv (a shared libpython, OpenSSL 3 built
# in; uv checks the download against the SHA-256 it carries, so pinning uv pins the Python).
# Then the same build as everywhere: scripts/bootstrap.py build from requirements/build.txt.
#
# Leaves dist/Gonzaga (owned by the calling user) and stops when the build needs a glibc newer
# than 2.28, when its notices are incomplete, or when it does not answer --version and reach its
# first frame. The host then packs it and runs the package tests against it (see
# packaging/linux/ci-steps.md).
set -euo pipefail

IMAGE="${MANYLINUX_IMAGE:-quay.io/pypa/manylinux_2_28_x86_64}"
UV_VERSION="${UV_VERSION:-0.13.8}"
PYTHON_VERSION="${PYTHON_VERSION:-3.11}"
MAX_GLIBC=2.28
src="$(cd "$(dirname "$0")/../.." && pwd)"

if [ "${1:-}" != "--inside" ]; then
    exec docker run --rm -v "$src:/src" -e HOST_UID="$(id -u)" -e HOST_GID="$(id -g)" \
        -e UV_VERSION -e PYTHON_VERSION "$IMAGE" bash /src/packaging/linux/build_in_manylinux.sh --inside
fi

# A copy of the tree without the host's .venv, build/ and dist/: the container's venv stays its own.
work=/tmp/gonzaga-build
rm -rf "$work" && mkdir -p "$work"
tar -C /src --exclude=./.venv --exclude=./build --exclude=./dist --exclude=./.git -cf - . | tar -C "$work" -xf -
cd "$work"

/opt/python/cp311-cp311/bin/python -m pip install --quiet "uv==$UV_VERSION"
uv=/opt/python/cp311-cp311/bin/uv
"$uv" python install "$PYTHON_VERSION"
python="$("$uv" python find --no-project "$PYTHON_VERSION")"
echo "building with $python ($("$python" -c 'import sys, ssl; print(sys.version.split()[0], ssl.OPENSSL_VERSION)'))"

"$python" scripts/bootstrap.py build --log-level WARN
.venv/bin/python tools/linux_reach.py glibc dist/Gonzaga --max "$MAX_GLIBC"
.venv/bin/python tools/notices.py --dist dist/Gonzaga --check
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy dist/Gonzaga/Gonzaga --version
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy dist/Gonzaga/Gonzaga --exit-after-first-frame

rm -rf /src/dist/Gonzaga && mkdir -p /src/dist
cp -a dist/Gonzaga /src/dist/Gonzaga
chown -R "${HOST_UID:-0}:${HOST_GID:-0}" /src/dist
echo "dist/Gonzaga built for glibc $MAX_GLIBC"
