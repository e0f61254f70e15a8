package cli

import (
	"strings"
	"testing"
)

// TestSettingsSummaryHidesPasswords: the admin console shows the database
// DSN without its password, in URL and key=value form.
func TestSettingsSummaryHidesPasswords(t *testing.T) {
	for _, dsn := range []string{
		"postgres://forge:s3cret@db.example.org:5432/dforge?sslmode=disable",
		"postgres://forge@db.example.org/dforge?password=s3cret",
		"host=db.example.org user=forge password=s3cret dbname=dforge",
		"host=db.example.org password='s3cret' dbname=dforge",
	} {
		var db string
		for _, s := range settingsSummary(ServeConfig{DB: dsn}) {
			if s.Name == "db" {
				db = s.Value
			}
		}
		if strings.Contains(db, "s3cret") || !strings.Contains(db, "db.example.org") {
			t.Errorf("db %q shown as %q", dsn, db)
		}
	}
}
