import BestiarySync
import BestiaryTestSupport
import Foundation
import GRDB
import Testing

/// `PackStore.removeMadeTables()`: after a failed first sync into an app's own database, the
/// file is left as it was, the app's own tables and migration rows too.
struct PackStoreTableRemovalTests {
    static func tables(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
    }

    /// An app whose GRDB migrator ran beside the sync (its row went into the `grdb_migrations`
    /// the store had made) kept the table and its row: the whole table was dropped (a reviewer's find).
    @Test func anAppsMigrationRowMadeMeanwhileStays() throws {
        let dir = TemporaryDirectory()
        let app = dir.appending("app.sqlite")
        try DatabaseQueue(path: app).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let store = try PackStore(path: app)
        #expect(store.madeTables)
        try DatabaseQueue(path: app).write { db in
            try db.execute(sql: "CREATE TABLE app_things (x); INSERT INTO grdb_migrations VALUES ('app-v1')")
        }
        #expect(store.removeMadeTables() == .removed)
        #expect(try Self.tables(app) == ["app_things", "grdb_migrations", "notes"])
        #expect(try DatabaseQueue(path: app).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == ["app-v1"])

        // Alone, the table the store made goes with its row.
        let plain = dir.appending("plain.sqlite")
        try DatabaseQueue(path: plain).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(try PackStore(path: plain).removeMadeTables() == .removed)
        #expect(try Self.tables(plain) == ["notes"])
    }

    /// A store that was there already, or one a version was committed to, is never taken out;
    /// one that cannot be changed now (another connection writing) says why.
    @Test func onlyWhatThisOpeningMadeAndNothingCommittedIsTakenOut() async throws {
        let dir = TemporaryDirectory()
        let app = dir.appending("app.sqlite")
        try await DatabaseQueue(path: app).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        _ = try PackStore(path: app)  // made the tables; a second opening did not
        #expect(try PackStore(path: app).removeMadeTables() == .nothingMade)
        #expect(try Self.tables(app).contains("pack_meta"))

        let held = dir.appending("held.sqlite")
        try await DatabaseQueue(path: held).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let store = try PackStore(path: held)
        let other = try DatabaseQueue(path: held)
        // Another program's write holds the database beyond the store's 10 s wait.
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            let outcome = store.removeMadeTables()
            try db.execute(sql: "ROLLBACK")
            guard case .failed(let why) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(why.contains("locked"), "\(why)")
        }
        #expect(try Self.tables(held).contains("pack_meta"), "still there, and said so")
    }
}
