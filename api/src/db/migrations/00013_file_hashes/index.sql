-- Each file's SHA-256, recorded by the file service as it writes (null only for content written before this
-- migration whose hash was never taken: the next version hashes it once and records it here). New content
-- is stored as the content-addressed blob itself (storage_key = 'blobs/sha256/<sha256>'), so a save is one
-- object write and taking a version afterwards reads and writes nothing. Older rows keep their own key
-- under projects/<id>/files/ until their file is next written.
alter table files add column sha256 text;

-- Hashes already known are copied; the rest are taken lazily, since hashing here would mean reading every
-- object from storage while the server starts.
update files f set sha256 = h.sha256 from file_hashes h where h.storage_key = f.storage_key;

-- file_hashes only existed to remember hashes of content objects; the files row now carries its own.
drop table file_hashes;
