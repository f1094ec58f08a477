#!/bin/bash
# In the guest: run COMMAND with the simulated device DEV's crypto in MODE
# (debugfs fw/crypto: none, plaintext or wrapped), and with the input
# rdma-core's tests/test_mlx5_crypto.py asks for (MLX5_CRYPTO_TEST_INFO: a
# wrapped credential and keys, in JSON).  The model holds no secrets and
# takes any credential and key bytes, so these are arbitrary but of the
# sizes the test packs: credential 6 x u64 (48 bytes), wrapped_key 5 x u64
# (40), wrapped_256_bits_key 9 x u64 (72), plaintext_key 8 x u32 (32),
# plaintext_256_bits_key 16 x u32 (64).  The expected ciphertext of 512
# and 1024 bytes of 'c' (encrypted_data_for_512_c, _1024_c: data units of
# 512 bytes, tweaks 0 and 1) is computed here by OpenSSL (python3's
# cryptography), independently of the kernel's cipher the model uses,
# with the 128-bit key the model holds: in plaintext mode plaintext_key
# as the test packs it, in wrapped mode wrapped_key less its first 8
# bytes (the model's unwrap rule, sim/mem/gen_dek.c).  The mode goes back
# to "none" afterwards.  Usage: guest-crypto.sh DEV MODE COMMAND [ARGS...]
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
# MODE COUNT: the ciphertext of COUNT units of 512 'c', as JSON u64s
xts_json() {
	python3 - "$1" "$2" <<'PY'
import json, struct, sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
mode, units = sys.argv[1], int(sys.argv[2])
if mode == 'wrapped':
    key = struct.pack('!5Q', *range(2000, 2005))[8:]
else:
    key = struct.pack('8I', *range(4000, 4008))
out = b''
for i in range(units):
    enc = Cipher(algorithms.AES(key),
                 modes.XTS(i.to_bytes(16, 'little'))).encryptor()
    out += enc.update(b'c' * 512) + enc.finalize()
print(json.dumps(list(struct.unpack('!%dQ' % (len(out) // 8), out))))
PY
}
vectors=
if [[ $mode != none ]]; then
	e512=$(xts_json "$mode" 1) && e1024=$(xts_json "$mode" 2) ||
		{ rm -f "$info"; exit 1; }
	vectors=",
  \"encrypted_data_for_512_c\": $e512,
  \"encrypted_data_for_1024_c\": $e1024"
fi
cat >"$info" <<EOF
[{"credential": $(seq_json 6 1000),
  "wrapped_key": $(seq_json 5 2000),
  "wrapped_256_bits_key": $(seq_json 9 3000),
  "plaintext_key": $(seq_json 8 4000),
  "plaintext_256_bits_key": $(seq_json 16 5000)$vectors}]
EOF
# the model's DEKs are "xts(aes)" ciphers: the template is a module
modprobe -q xts
echo "$mode" >"$knob" || { rm -f "$info"; exit 1; }
MLX5_CRYPTO_TEST_INFO=$info "$@"
rc=$?
echo none >"$knob" || rc=1
rm -f "$info"
exit $rc
