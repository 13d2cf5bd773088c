import BestiaryDiagnostics
import BestiaryPackFormat
import BestiaryStorage
import BestiaryCrypto
import Foundation

/// Finds the keys `build` signs packs with: `--signing-key FILE` or `BESTIARY_SIGNING_KEY`.
public enum SigningKeys {
    public static let environmentVariable = "BESTIARY_SIGNING_KEY"
    public typealias Key = Curve25519.Signing.PrivateKey

    /// The signing keys, or none (unsigned packs).
    ///
    /// A file may hold what `bestiary keys generate` printed (its `private-key:` lines are used,
    /// `public-key:` lines ignored) or bare base64 keys, one per line; `#` starts a comment.
    /// The environment variable holds one base64 key, or several separated by commas or spaces
    /// (to sign with an old and a new key while apps move over). The file wins over the
    /// environment when both are given.
    public static func load(
        environment: [String: String], file: String?, fileSystem: any FileSystem = LocalFileSystem()
    ) throws(DiagnosticError) -> [Curve25519.Signing.PrivateKey] {
        if let file {
            let text: String
            do {
                text = try fileSystem.readString(file)
            } catch {
                throw DiagnosticError(.error(
                    "cannot read the key file: \((error as? FileSystemError)?.reason ?? "\(error)")", at: SourceLocation(path: file), stage: "packs"))
            }
            var keys: [Curve25519.Signing.PrivateKey] = []
            var keyLines: [Int] = []
            var publicLines: [String] = []
            for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
                var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasPrefix("public-key:") {
                    publicLines.append(line.dropFirst("public-key:".count).trimmingCharacters(in: .whitespaces))
                    continue
                }
                if line.hasPrefix("private-key:") { line = String(line.dropFirst("private-key:".count)) }
                do {
                    keys.append(try PackKeys.privateKey(base64: line))
                    keyLines.append(n + 1)
                } catch {
                    throw DiagnosticError(.error("\(error.message) (line \(n + 1))", at: SourceLocation(path: file, line: n + 1, column: 1), stage: "packs"))
                }
            }
            // What `keys generate` printed holds each private key's public key: a file where they
            // do not match was mixed up (apps would be given the wrong key to trust).
            if !publicLines.isEmpty {
                for (key, line) in zip(keys, keyLines) where !publicLines.contains(PackKeys.base64(key.publicKey)) {
                    throw DiagnosticError(.error(
                        "the private key's public key is \(PackKeys.base64(key.publicKey)), which no public-key line of the file names; the file mixes up two key pairs",
                        at: SourceLocation(path: file, line: line, column: 1), stage: "packs"))
                }
            }
            guard !keys.isEmpty else {
                throw DiagnosticError(.error(
                    publicLines.isEmpty
                        ? "no private key in the file; save the output of `bestiary keys generate` there"
                        : "the file holds only a public key (public-key: …), which checks signatures; signing needs the private-key line `bestiary keys generate` printed beside it",
                    at: SourceLocation(path: file), stage: "packs"))
            }
            return keys
        }
        guard let value = environment[environmentVariable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return []
        }
        var keys: [Curve25519.Signing.PrivateKey] = []
        for part in value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" }) {
            var text = String(part)
            if text.hasPrefix("private-key:") { text = String(text.dropFirst("private-key:".count)) }
            if text.isEmpty { continue }
            do {
                keys.append(try PackKeys.privateKey(base64: text))
            } catch {
                throw DiagnosticError(.error("\(environmentVariable): \(error.message)", stage: "packs"))
            }
        }
        return keys
    }

    /// The base64 public keys of the keys ``load(environment:file:fileSystem:)`` finds.
    public static func publicKeys(
        environment: [String: String], file: String?, fileSystem: any FileSystem = LocalFileSystem()
    ) throws(DiagnosticError) -> [String] {
        try load(environment: environment, file: file, fileSystem: fileSystem).map { PackKeys.base64($0.publicKey) }
    }
}
