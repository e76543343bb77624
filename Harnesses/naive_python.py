#!/usr/bin/env python3
"""forge check harness in Python (standard library only): a *naive* validator.

It decodes the receipt and checks what the receipt says -- bundle id, app version,
device hash, VPP expiry -- but, like many validators written in a hurry, it never
checks the PKCS#7 signature or the certificate chain. Its results table shows what
that costs: the critical cases (tampered payload, untrusted root, ...) pass it.

    forge check -- python3 Harnesses/naive_python.py

Answers with the JSON form of the contract: {"verdict": ..., "reason": ...}.
"""
import hashlib
import json
import os
import sys
from datetime import datetime, timezone


def answer(verdict, reason=None):
    print(json.dumps({"verdict": verdict, "reason": reason}))
    sys.exit(0 if verdict == "valid" else 1)


class Malformed(Exception):
    pass


def element(data, offset):
    """(tag, constructed, contents start, contents end, element end); BER lengths."""
    if offset + 2 > len(data):
        raise Malformed("truncated header")
    tag, constructed = data[offset], bool(data[offset] & 0x20)
    if tag & 0x1F == 0x1F:
        raise Malformed("high tag numbers are not used in receipts")
    length, pos = data[offset + 1], offset + 2
    if length == 0x80:  # indefinite: walk the children up to end-of-contents
        if not constructed:
            raise Malformed("indefinite length on a primitive")
        child = pos
        while data[child:child + 2] != b"\x00\x00":
            child = element(data, child)[4]
        return tag, constructed, pos, child, child + 2
    if length & 0x80:
        count = length & 0x7F
        if count == 0 or count > 4 or pos + count > len(data):
            raise Malformed("bad length")
        length, pos = int.from_bytes(data[pos:pos + count], "big"), pos + count
    if pos + length > len(data):
        raise Malformed("length past the end")
    return tag, constructed, pos, pos + length, pos + length


def children(data, start, end):
    while start < end:
        if data[start:start + 2] == b"\x00\x00":
            return
        item = element(data, start)
        yield item
        start = item[4]


def octets(data, item):
    """An OCTET STRING's bytes, joining the segments of a constructed one."""
    tag, constructed, start, end, _ = item
    if not constructed:
        return data[start:end]
    return b"".join(octets(data, child) for child in children(data, start, end))


def payload(data):
    _, _, start, end, _ = element(data, 0)           # ContentInfo
    content = list(children(data, start, end))
    if len(content) != 2 or data[content[0][2]:content[0][3]] != bytes.fromhex("2a864886f70d010702"):
        raise Malformed("not PKCS#7 signedData")
    signed = next(children(data, content[1][2], content[1][3]))   # [0] -> SignedData
    encap = list(children(data, signed[2], signed[3]))[2]       # encapContentInfo
    explicit = list(children(data, encap[2], encap[3]))[1]      # [0]
    return octets(data, next(children(data, explicit[2], explicit[3])))


def attributes(data):
    _, _, start, end, _ = element(data, 0)
    found = {}
    for sequence in children(data, start, end):
        type_, _version, value = list(children(data, sequence[2], sequence[3]))
        number = int.from_bytes(data[type_[2]:type_[3]], "big", signed=True)
        found.setdefault(number, []).append(data[value[2]:value[3]])
    return found


def string(value):
    return value[element(value, 0)[2]:].decode("utf-8")


def parse_date(text):
    text = text.replace("Z", "+0000")
    for form in ("%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%dT%H:%M:%S%z"):
        try:
            return datetime.strptime(text, form)
        except ValueError:
            pass
    raise Malformed("bad date " + text)


def main():
    path = os.environ["FORGE_RECEIPT"]
    if not os.path.exists(path):
        answer("invalid", "missing")
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        fields = attributes(payload(data))
        bundle, version = fields[2][0], string(fields[3][0])
        opaque, digest = fields[4][0], fields[5][0]
        if string(bundle) != os.environ["FORGE_BUNDLE_ID"]:
            answer("invalid", "bundle-mismatch")
        if version != os.environ["FORGE_APP_VERSION"]:
            answer("invalid", "version-mismatch")
        device = bytes.fromhex(os.environ["FORGE_DEVICE_ID"])
        if hashlib.sha1(device + opaque + bundle).digest() != digest:
            answer("invalid", "device-hash-mismatch")
        expiry = fields.get(21, [b""])[0]
        if expiry and string(expiry):
            if parse_date(string(expiry)) <= parse_date(os.environ["FORGE_NOW"]):
                answer("invalid", "receipt-expired")
    except (Malformed, KeyError, IndexError, ValueError, StopIteration, UnicodeDecodeError):
        answer("invalid", "malformed")
    answer("valid")


if __name__ == "__main__":
    main()
