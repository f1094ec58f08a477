#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check every RoCE frame of a pcap file: headers, lengths and ICRC.

Debian's tshark decodes RoCE v2 but shows the ICRC without checking it;
this recomputes it (IBTA Annex A17: CRC-32 over 8 bytes of 0xff and the
packet from the IP header on, with IPv4's TOS, TTL and checksum, IPv6's
traffic class, flow label and hop limit, UDP's checksum and the BTH's
byte 4 set to ones; sent least significant byte first).  RoCE v1
(Annex A16: Ethertype 0x8915, a GRH whose next header is 0x1B, then the
BTH) the same way, over the GRH (traffic class, flow label and hop limit
masked) with no UDP header.  Either may be under an 802.1Q tag.
Usage: roce-icrc.py FILE.pcap   Prints "roce-icrc: N frames, N bad".
"""
import struct
import sys
import zlib


def frames(path):
    with open(path, 'rb') as f:
        hdr = f.read(24)
        end = '<' if struct.unpack('<I', hdr[:4])[0] == 0xa1b2c3d4 else '>'
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            incl = struct.unpack(end + 'IIII', rec)[2]
            yield f.read(incl)


def check(fr):
    """None: not RoCE; else True/False: ICRC right."""
    if len(fr) < 14:
        return None
    etype = struct.unpack('!H', fr[12:14])[0]
    l3 = fr[14:]
    if etype == 0x8100 and len(fr) >= 18:
        etype = struct.unpack('!H', fr[16:18])[0]
        l3 = fr[18:]
    udp = 8
    if etype == 0x8915 and len(l3) >= 40 and l3[6] == 0x1b:
        hl = 40
        total = 40 + struct.unpack('!H', l3[4:6])[0]
        mask = [1, 2, 3, 7]
        udp = 0
    elif etype == 0x0800 and len(l3) >= 28 and l3[9] == 17:
        hl = (l3[0] & 15) * 4
        total = struct.unpack('!H', l3[2:4])[0]
        mask = [1, 8, 10, 11]
    elif etype == 0x86dd and len(l3) >= 48 and l3[6] == 17:
        hl = 40
        total = 40 + struct.unpack('!H', l3[4:6])[0]
        mask = [1, 2, 3, 7]
    else:
        return None
    if udp and struct.unpack('!H', l3[hl + 2:hl + 4])[0] != 4791:
        return None
    if total > len(l3) or total < hl + udp + 12 + 4:
        return False
    ph = bytearray(l3[:total - 4])
    for i in mask:
        ph[i] = 0xff
    if etype != 0x0800:
        ph[0] |= 0x0f
    if udp:
        ph[hl + 6] = ph[hl + 7] = 0xff
    ph[hl + udp + 4] = 0xff
    crc = zlib.crc32(b'\xff' * 8 + bytes(ph)) & 0xffffffff
    return struct.pack('<I', crc) == l3[total - 4:total]


n = bad = 0
for fr in frames(sys.argv[1]):
    r = check(fr)
    if r is None:
        continue
    n += 1
    if not r:
        bad += 1
        print('# bad ICRC: ' + fr.hex())
print('roce-icrc: %d frames, %d bad' % (n, bad))
sys.exit(1 if bad or not n else 0)
