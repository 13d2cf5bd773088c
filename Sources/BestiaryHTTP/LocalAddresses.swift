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
    /// Interfaces no other machine reaches this one through: containers' and virtual machines'
    /// bridges (`docker0` is up with no cable, 172.17.0.1).
    static let virtualPrefixes = ["docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "cni", "flannel", "lxc", "lxd"]

    /// Each once, home and office networks' addresses first (192.168.…, 10.…, 172.16–31.…);
    /// empty when the interfaces cannot be listed. Only interfaces that are up and running, not
    /// point-to-point (a VPN's tunnel), not a virtual bridge.
    public static func ipv4() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let head = first else { return [] }
        defer { freeifaddrs(head) }
        var found: Set<String> = []
        var next: UnsafeMutablePointer<ifaddrs>? = head
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            let name = String(cString: entry.pointee.ifa_name)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_RUNNING) != 0,
                flags & Int32(IFF_LOOPBACK) == 0, flags & Int32(IFF_POINTOPOINT) == 0,
                !virtualPrefixes.contains(where: name.hasPrefix)
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var bits = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &bits, &text, socklen_t(text.count)) != nil
            }
            if ok { found.insert(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return found.sorted { (rank($0), $0) < (rank($1), $1) }
    }

    /// 0 for the ranges home and office networks use most, 192.168.… first.
    static func rank(_ address: String) -> Int {
        let parts = address.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 4 else { return 4 }
        if parts[0] == 192 && parts[1] == 168 { return 0 }
        if parts[0] == 10 { return 1 }
        if parts[0] == 172 && (16...31).contains(parts[1]) { return 2 }
        return 3
    }
}
