#!/bin/bash
# Install libmlx5x into a scratch DESTDIR and build a program against it
# the way a user would: pkg-config --cflags --libs mlx5x.  Then check the
# installed tree and that the program links to the installed library.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
t() {	# NAME CMD...
	n=$((n + 1))
	if "${@:2}" >"$tmp/out" 2>&1; then
		echo "ok $n $1"
	else
		sed 's/^/# /' "$tmp/out"
		echo "not ok $n $1"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
echo "1..6"
t install make -s -C "$here" OUTPUT="$tmp/build" DESTDIR="$tmp/root" \
	PREFIX=/usr LIBDIR=lib install
t files test -f "$tmp/root/usr/include/mlx5x/dm.h" -a \
	-L "$tmp/root/usr/lib/libmlx5x.so" -a \
	-f "$tmp/root/usr/lib/libmlx5x.so.0.1.0" -a \
	-f "$tmp/root/usr/lib/pkgconfig/mlx5x.pc"
export PKG_CONFIG_SYSROOT_DIR=$tmp/root
export PKG_CONFIG_LIBDIR=$tmp/root/usr/lib/pkgconfig:/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig
t modversion test "$(pkg-config --modversion mlx5x)" = 0.1.0
cat >"$tmp/use.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <mlx5x/dm.h>

int main(void)
{
	struct ibv_alloc_dm_attr attr = { .length = 4096 };

	/* no context: refused before any ioctl */
	if (mlx5x_alloc_dm(NULL, &attr, MLX5X_DM_TYPE_ENCAP_SW_ICM) ||
	    errno != EINVAL)
		return 1;
	printf("%d\n", MLX5X_DM_TYPE_ENCAP_SW_ICM);
	return 0;
}
C
# shellcheck disable=SC2046
t build cc -Wall -Werror -o "$tmp/use" "$tmp/use.c" \
	$(pkg-config --cflags --libs mlx5x) -libverbs
t run env LD_LIBRARY_PATH="$tmp/root/usr/lib" "$tmp/use"
t links sh -c "LD_LIBRARY_PATH='$tmp/root/usr/lib' ldd '$tmp/use' | \
	grep -q '$tmp/root/usr/lib/libmlx5x.so.0'"
echo "# shim install: $((n - fail)) passed, $fail failed"
((fail == 0))
