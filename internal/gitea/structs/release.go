package structs

// Release is Gitea's Release, and Attachment one of its assets, with the
// asset's UnixFS root (cid, "" in a private repository) and the SHA-256
// of its bytes. (Declared as a group: each API alias keeps the OpenAPI
// description it always had.)
type (
	Release struct {
		ID          int64        `json:"id"`
		TagName     string       `json:"tag_name"`
		Target      string       `json:"target_commitish"`
		Title       string       `json:"name"`
		Note        string       `json:"body"`
		URL         string       `json:"url"`
		HTMLURL     string       `json:"html_url"`
		TarURL      string       `json:"tarball_url"`
		ZipURL      string       `json:"zipball_url"`
		UploadURL   string       `json:"upload_url"`
		Draft       bool         `json:"draft"`
		Prerelease  bool         `json:"prerelease"`
		CreatedAt   string       `json:"created_at"`
		PublishedAt string       `json:"published_at"`
		Author      User         `json:"author"`
		Assets      []Attachment `json:"assets"`
		// Signer and Delegation: as an issue's (dForge).
		Signer     string `json:"signer"`
		Delegation string `json:"delegation"`
	}

	Attachment struct {
		ID            int64  `json:"id"`
		Name          string `json:"name"`
		Size          int64  `json:"size"`
		DownloadCount int64  `json:"download_count"`
		CreatedAt     string `json:"created_at"`
		UUID          string `json:"uuid"`
		DownloadURL   string `json:"browser_download_url"`
		// CID is the asset's UnixFS root, SHA256 the digest of its bytes.
		CID    string `json:"cid"`
		SHA256 string `json:"sha256"`
	}
)
