#!/usr/bin/env python3
"""Writes the generated media of these fixtures (run from this folder; output is deterministic).

- *.mp3: silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, mono); the wildsound ones
  with or without a minimal ID3v2.3 tag in front, as the app's bucket held both kinds.
- csv/media/frog.png: a 4x4 green PNG.
"""
import struct, zlib

def mp3(frames, id3=False):
    header = bytes([0xFF, 0xFB, 0x90, 0xC4])      # sync, MPEG-1 L3, 128 kbit/s, 44.1 kHz, mono
    frame = header + bytes(417 - len(header))      # all-zero side info: a silent frame
    tag = b"ID3\x03\x00\x00\x00\x00\x00\x00" if id3 else b""
    return tag + frame * frames

def png(w, h, rgb):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))

files = {
    "wildsound/sounds/Fuchs.mp3": mp3(12),
    "wildsound/sounds/Amsel.mp3": mp3(10, id3=True),
    "wildsound/sounds/Rötelmaus.mp3": mp3(8),
    "csv/media/frog-call.mp3": mp3(9, id3=True),
    "csv/media/frog.png": png(4, 4, (60, 140, 60)),
}
for path, data in files.items():
    with open(path, "wb") as f:
        f.write(data)
