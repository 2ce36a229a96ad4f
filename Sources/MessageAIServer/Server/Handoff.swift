/// A value that one queue makes and hands to another, which alone uses it from then on (the
/// maker keeps no reference). Sound because `DispatchQueue.async` orders the maker's last access
/// before the receiver's first. For values whose types are not `Sendable`, such as a
/// `TLSContext` loaded off the hub and installed on it.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
