#!/usr/bin/env python3
"""An independent decrypter for HealthProbe encrypted exports, written from
docs/ENCRYPTED-EXPORTS.md alone with the `cryptography` package.

    decrypt-export.py ENCRYPTED OUTPUT --password-file FILE

Exit 0 when the whole file verified (OUTPUT written), 65 otherwise (nothing written).
"""
import os
import struct
import sys
import tempfile

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

OUTER = 35
KEY_CHECK = 32
KEY_CHECK_MESSAGE = b"HealthProbe encrypted export key check"
STREAM = 40
TAG = 16


class Refused(Exception):
    pass


def read_exactly(stream, count):
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def decrypt(source, sink, password):
    outer = read_exactly(source, OUTER)
    if len(outer) != OUTER or outer[:8] != b"HPEXPENC" or outer[8] not in (1, 2) or outer[9] != 1 \
            or outer[14] != 16:
        raise Refused("not a HealthProbe encrypted export")
    version = outer[8]
    iterations = struct.unpack(">I", outer[10:14])[0]
    salt = outer[15:31]
    segment_size = struct.unpack(">I", outer[31:35])[0]
    if not 600_000 <= iterations <= 10_000_000 or not 64 <= segment_size <= 1 << 24:
        raise Refused("parameters out of range")
    key_check = read_exactly(source, KEY_CHECK) if version == 2 else b""
    if len(key_check) != (KEY_CHECK if version == 2 else 0):
        raise Refused("header cut short")
    outer += key_check
    stream_header = read_exactly(source, STREAM)
    if len(stream_header) != STREAM or stream_header[0] != STREAM:
        raise Refused("bad stream header")
    hkdf_salt, prefix = stream_header[1:33], stream_header[33:40]
    ikm = PBKDF2HMAC(hashes.SHA256(), 32, salt, iterations).derive(password)
    if version == 2:
        check = hmac.HMAC(ikm, hashes.SHA256())
        check.update(KEY_CHECK_MESSAGE)
        try:
            check.verify(key_check)
        except Exception:
            raise Refused("wrong password")
    key = AESGCM(HKDF(hashes.SHA256(), 32, hkdf_salt, outer).derive(ikm))
    index = 0
    segment = read_exactly(source, segment_size - STREAM)
    while True:
        following = read_exactly(source, segment_size)
        last = not following
        if len(segment) < TAG:
            raise Refused("segment too short")
        nonce = prefix + struct.pack(">I", index) + (b"\x01" if last else b"\x00")
        try:
            sink.write(key.decrypt(nonce, segment, None))
        except InvalidTag:
            raise Refused("segment %d does not verify" % index)
        if last:
            return
        index += 1
        segment = following


def main(arguments):
    if len(arguments) != 4 or arguments[2] != "--password-file":
        print(__doc__.strip(), file=sys.stderr)
        return 64
    encrypted, output, password_file = arguments[0], arguments[1], arguments[3]
    with open(password_file, "rb") as handle:
        password = handle.read().split(b"\n")[0].rstrip(b"\r")
    folder = os.path.dirname(os.path.abspath(output))
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".decrypt-")
    try:
        with open(encrypted, "rb") as source, os.fdopen(descriptor, "wb") as sink:
            decrypt(source, sink, password)
        os.replace(temporary, output)
        return 0
    except Refused as problem:
        print("refused: %s" % problem, file=sys.stderr)
        return 65
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
