import CSQLiteTuning
import Foundation

/// Starts the writing of a store's WAL to disk while a `check` still runs, so that the
/// checkpoint at its end, which must sync the WAL before it copies it into the database file,
/// finds little left to write. A `check` adds 70 MB or more of derived rows to the WAL; the
/// benchmark machine's disk took 0.2–0.3 s to sync them at the end, where every other thread was
/// done. Started after each chunk of rows (``DerivedStage``), the writing goes on beside the
/// replay. Linux only (`sync_file_range`); elsewhere nothing.
///
/// It asks for writing and never waits, so it changes nothing of what is durable when: SQLite's
/// own syncs still decide that. The file is opened for reading only; SQLite takes no lock on the
/// WAL file (its locks are on the database and `-shm` files), so this descriptor's closing cannot
/// release one.
final class WriteAheadLogWriteback {
    private let descriptor: Int32

    /// For the WAL of the database at `databasePath`; does nothing if that is not a regular file
    /// it can open. SQLite names the WAL after the database's path with its symbolic links
    /// resolved, and so does this. Opened without waiting (a FIFO of that name would otherwise
    /// block until something wrote to it).
    init(databasePath: String) {
        let resolved = URL(fileURLWithPath: databasePath).resolvingSymlinksInPath().path
        let opened = open(resolved + "-wal", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        var status = stat()
        if opened >= 0, fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            descriptor = opened
        } else {
            if opened >= 0 { close(opened) }
            descriptor = -1
        }
    }

    /// Whether it found the WAL (for tests).
    var foundLog: Bool { descriptor >= 0 }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Asks for the WAL's pages written so far to be written to disk, without waiting.
    func start() {
        guard descriptor >= 0 else { return }
        _ = lifeline_start_writeback(descriptor)
    }
}
