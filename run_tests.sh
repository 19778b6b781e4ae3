#!/usr/bin/env bash
# Runs every test of the project: installs what it needs, builds natively, runs CTest (core, CLI).
# Safe to run again; a fresh Debian 12 machine needs nothing else.
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure_packages.sh build-essential cmake libeigen3-dev nlohmann-json3-dev libcli11-dev \
  libgtest-dev libbenchmark-dev python3 python3-numpy

cmake --preset native
cmake --build --preset native -j "$(nproc)"
ctest --preset native -j "$(nproc)"
