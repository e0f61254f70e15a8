package forge

// RepoManifest records the manifest of a push's big objects (RepoPush's
// Manifest) after the push: the node that received the push builds it while
// it stores the push's objects as blocks, after acknowledging the push, so
// hashing the big objects once more is not on the push's path. A replica
// reads every manifest of a repository, from either action.
type RepoManifest struct {
	Repo     uint64 `json:"repo"`
	Manifest string `json:"manifest"`
}

// ManifestRecord is a recorded manifest of a repository's big objects.
type ManifestRecord struct {
	Repo     uint64 `json:"repo"`
	Manifest string `json:"manifest"`
}

// repoManifest needs write permission, as the push it describes did. The
// chain checks the CID's form only: a replica checks each object it reads
// through a manifest against its git id, so a wrong manifest costs it a
// fetch, never a wrong object.
func repoManifest(s *session, payload []byte) error {
	var p RepoManifest
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "recording big objects of")
	if err != nil {
		return err
	}
	if r.Private {
		return invalid("repo", "a private repository's objects are not published")
	}
	if err := validateManifest(p.Manifest); err != nil {
		return err
	}
	s.change.Manifest = &ManifestRecord{Repo: r.ID, Manifest: p.Manifest}
	// Saved, so the repository reads as changed at this height: a replica
	// that could not fetch its big objects without the manifest tries again.
	return s.saveRepo(r)
}
