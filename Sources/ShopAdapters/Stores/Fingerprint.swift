import ShopCore

/// The 64-bit hash the index of refs files a ref under, and checks its header's lines and
/// boot by: FNV-1a, then a 64-bit finalizer so that the low bits are well mixed; never 0,
/// which the index keeps for an empty slot. Written in the index file, so it never changes:
/// an index made by an earlier `shop` must read the same.
enum Fingerprint {
  static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = start
    for byte in bytes { hash = step(hash, byte) }
    return finish(hash)
  }

  /// ``of(_:)`` in three steps, for a reader that hashes bytes as it scans them.
  static let start: UInt64 = 0xcbf2_9ce4_8422_2325

  @inline(__always)
  static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    (hash ^ UInt64(byte)) &* 0x100_0000_01b3
  }

  @inline(__always)
  static func finish(_ hash: UInt64) -> UInt64 {
    var hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
    hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash == 0 ? 1 : hash
  }
}

extension Reference {
  /// What the index files this ref under: the ``Fingerprint`` of its bytes.
  var fingerprint: UInt64 { Fingerprint.of(text.utf8) }
}
