import BestiaryStorage
import Foundation
import Testing

/// `SOURCE_DATE_EPOCH`: a build's time, or a clear refusal (never a crash, never a pack whose
/// dates no client reads).
@Suite struct BuildTimeTests {
    func problem(_ value: String) -> String? {
        do {
            _ = try BuildTime.sourceDateEpoch(["SOURCE_DATE_EPOCH": value])
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aTimeIsReadAndAnythingElseIsRefused() throws {
        #expect(try BuildTime.sourceDateEpoch(["SOURCE_DATE_EPOCH": " 1767225600 "]) == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(try BuildTime.sourceDateEpoch([:]) == nil)
        // Empty is unset, as the spec's shell idiom `${SOURCE_DATE_EPOCH:-$(date +%s)}` takes it
        // (a CI template exporting it empty failed every build).
        #expect(try BuildTime.sourceDateEpoch(["SOURCE_DATE_EPOCH": ""]) == nil)
        #expect(try BuildTime.sourceDateEpoch(["SOURCE_DATE_EPOCH": " "]) == nil)
        for bad in ["abc", "-5", "1.5"] {
            #expect(problem(bad)?.contains("is not a non-negative integer number of seconds since 1970") == true, "\(bad)")
        }
        // Past what four-digit years can write: it crashed the build (Int64 overflow) or published
        // a pack that expires in the year 10000.
        for far in ["9223372036854775807", "253400000000", "253370764800"] {
            #expect(problem(far) == "cannot read SOURCE_DATE_EPOCH: '\(far)' is after the year 9998; give the time of the commit being built (`git log -1 --format=%ct`)", "\(far)")
        }
        #expect(problem("253370764799") == nil)
    }
}
