#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send one RoCE v2 UD SEND (16 bytes, to QP 0xabcde) out of a netdev.

Written from IBTA Annex A17 for the tests, not from the model: Ethernet
[802.1Q tag], IPv4 (DF, TTL 64, no options), UDP 4791 (checksum 0), BTH
(SEND only 0x64, P_Key 0xffff), DETH, 16 bytes, ICRC (CRC-32 over 8 bytes
of 0xff and the packet from the IP header, with TOS, TTL, the header
checksum, the UDP checksum and the BTH's byte 4 set to ones; least
significant byte first).
Usage: roce-inject.py IFACE DMAC SIP DIP VID   (VID -: no tag)
"""
import socket
import struct
import sys
import zlib


def csum(b):
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(dmac, smac, sip, dip, vid):
    payload = b'\x3c' * 16
    bth = struct.pack('!BBHII', 0x64, 0, 0xffff, 0xabcde, 0)
    deth = struct.pack('!II', 0x11111111, 0x22)
    l4 = 8 + len(bth) + len(deth) + len(payload) + 4
    udp = struct.pack('!HHHH', 0xc001, 4791, l4, 0)
    ip = bytearray(struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + l4, 0,
                               0x4000, 64, 17, 0, socket.inet_aton(sip),
                               socket.inet_aton(dip)))
    ip[10:12] = struct.pack('!H', csum(bytes(ip)))
    ph = bytearray(ip + udp + bth)
    for i in (1, 8, 10, 11, 26, 27, 32):
        ph[i] = 0xff
    crc = zlib.crc32(b'\xff' * 8 + bytes(ph) + deth + payload) & 0xffffffff
    l2 = dmac + smac
    if vid is not None:
        l2 += struct.pack('!HH', 0x8100, vid)
    return (l2 + b'\x08\x00' + bytes(ip) + udp + bth + deth + payload +
            struct.pack('<I', crc))


def main():
    iface, dmac, sip, dip, vid = sys.argv[1:6]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    smac = s.getsockname()[4]
    s.send(frame(bytes.fromhex(dmac.replace(':', '')), smac, sip, dip,
                 None if vid == '-' else int(vid)))


main()
