import ShopCore

/// The 64-bit hash the index of refs files a ref under, and checks its header's lines and
/// boot by: FNV-1a, then a 64-bit finalizer so that the low bits are well mixed; never 0,
/// which the index keeps for an empty slot. Written in the index file, so it never changes:
/// an index made by an earlier `shop` must read the same.
enum Fingerprint {
  static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
    hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash == 0 ? 1 : hash
  }
}

extension Reference {
  /// What the index files this ref under: the ``Fingerprint`` of its bytes.
  var fingerprint: UInt64 { Fingerprint.of(text.utf8) }
}
