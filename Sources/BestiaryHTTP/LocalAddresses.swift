import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's IPv4 addresses on its networks (not the loopback): what other machines open
/// to reach a server listening on every address (`bestiary serve --host 0.0.0.0`, which named
/// only 127.0.0.1, an address no visitor's phone can use: a volunteer's open day).
public enum LocalAddresses {
    /// Sorted, each once; empty when the interfaces cannot be listed.
    public static func ipv4() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let head = first else { return [] }
        defer { freeifaddrs(head) }
        var found: Set<String> = []
        var next: UnsafeMutablePointer<ifaddrs>? = head
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var bits = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &bits, &text, socklen_t(text.count)) != nil
            }
            if ok { found.insert(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return found.sorted()
    }
}
