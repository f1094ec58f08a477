#!/bin/bash
# Documentation/ with Sphinx from Debian's python3-sphinx; any warning fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
/usr/bin/python3 -m sphinx -W -q -b html "$ROOT/Documentation" \
	"$ROOT/build/docs"
echo "docs: build/docs/index.html, no warnings"
