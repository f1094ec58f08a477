#!/bin/bash
# In the guest: run COMMAND with the simulated device DEV's crypto in MODE
# (debugfs fw/crypto: none, plaintext or wrapped), and with the input
# rdma-core's tests/test_mlx5_crypto.py asks for (MLX5_CRYPTO_TEST_INFO: a
# wrapped credential and keys, in JSON).  The model holds no secrets and
# takes any credential and key bytes, so these are arbitrary but of the
# sizes the test packs: credential 6 x u64 (48 bytes), wrapped_key 5 x u64
# (40), wrapped_256_bits_key 9 x u64 (72), plaintext_key 8 x u32 (32),
# plaintext_256_bits_key 16 x u32 (64).  No encrypted_data_* entries: the
# model has no data path to check them against.  The mode goes back to
# "none" afterwards.  Usage: guest-crypto.sh DEV MODE COMMAND [ARGS...]
set -uo pipefail

dev=$1 mode=$2
shift 2
knob=/sys/kernel/debug/mlx5x/$dev/fw/crypto
info=$(mktemp)
seq_json() {	# COUNT BASE: COUNT integers
	local i out=
	for ((i = 0; i < $1; i++)); do
		out+="${out:+, }$(($2 + i))"
	done
	echo "[$out]"
}
cat >"$info" <<EOF
[{"credential": $(seq_json 6 1000),
  "wrapped_key": $(seq_json 5 2000),
  "wrapped_256_bits_key": $(seq_json 9 3000),
  "plaintext_key": $(seq_json 8 4000),
  "plaintext_256_bits_key": $(seq_json 16 5000)}]
EOF
echo "$mode" >"$knob" || { rm -f "$info"; exit 1; }
MLX5_CRYPTO_TEST_INFO=$info "$@"
rc=$?
echo none >"$knob" || rc=1
rm -f "$info"
exit $rc
