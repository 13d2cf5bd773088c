#!/usr/bin/env python3
"""Renders the default theme's paw icon (templates/assets/icons/icon.svg) as the PNG sizes the
web app manifest needs, without an image library. Run from the repository root."""
import struct, zlib

ELLIPSES = [(32, 41, 12, 10), (18, 28, 5, 6.5), (46, 28, 5, 6.5), (25.5, 18.5, 4.5, 6), (38.5, 18.5, 4.5, 6)]
BG, FG, RADIUS = (0x2F, 0x6B, 0x4F), (0xFB, 0xFA, 0xF7), 14

def paw(size):
    scale = size / 64.0
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            px, py = (x + 0.5) / scale, (y + 0.5) / scale
            inside = any(((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1 for cx, cy, rx, ry in ELLIPSES)
            cx, cy = min(max(px, RADIUS), 64 - RADIUS), min(max(py, RADIUS), 64 - RADIUS)
            if (px - cx) ** 2 + (py - cy) ** 2 > RADIUS * RADIUS:
                row += bytes([0, 0, 0, 0])
            else:
                row += bytes((FG if inside else BG) + (255,))
        rows.append(bytes(row))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))

if __name__ == "__main__":
    for n in (192, 512):
        with open(f"templates/assets/icons/icon-{n}.png", "wb") as f:
            f.write(paw(n))
