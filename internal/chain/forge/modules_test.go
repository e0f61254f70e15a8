package forge_test

// The modules that register actions into the forge's table, so this
// package's tests (the text rules over every action, the fuzzer's seeds)
// cover their actions too, as the app does (internal/chain/app/modules.go).
import (
	_ "github.com/dforge/dforge/internal/chain/calendar"
	_ "github.com/dforge/dforge/internal/chain/emails"
	_ "github.com/dforge/dforge/internal/chain/follows"
	_ "github.com/dforge/dforge/internal/chain/forum"
	_ "github.com/dforge/dforge/internal/chain/listing"
	_ "github.com/dforge/dforge/internal/chain/sshkeys"
)
