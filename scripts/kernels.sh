#!/bin/bash
# The kernels mlx5x is built and tested for: Debian 12's own and the
# bookworm-backports one.  Sourced; sets KVERS (override with env KVERS).
# shellcheck shell=bash disable=SC2034
KVERS=${KVERS:-"6.1.0-56-amd64 6.12.95+deb12-amd64"}
