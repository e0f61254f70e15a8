package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	cmtcfg "github.com/cometbft/cometbft/config"
	cmtjson "github.com/cometbft/cometbft/libs/json"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/privval"
	"github.com/cometbft/cometbft/types"
	cmttime "github.com/cometbft/cometbft/types/time"
)

// Init creates what is missing in cfg.Home: config.toml, the node key, the
// validator key and its signing state, and a genesis with this node as the
// only validator and cfg.AppState as the application state. Existing files are
// kept: the signing state in particular must survive restarts, or the
// validator could sign two different blocks at one height.
func Init(cfg Config) error {
	cc, err := cometConfig(cfg)
	if err != nil {
		return err
	}
	if err := ensureDirs(cc); err != nil {
		return err
	}
	if _, err := p2p.LoadOrGenNodeKey(cc.NodeKeyFile()); err != nil {
		return fmt.Errorf("node key: %w", err)
	}
	pv, err := loadOrGenPV(cc)
	if err != nil {
		return err
	}
	if err := initGenesis(cc, cfg, pv); err != nil {
		return err
	}
	return writeConfigIfMissing(cfg.configFile(), cc)
}

func initGenesis(cc *cmtcfg.Config, cfg Config, pv *privval.FilePV) error {
	if exists(cc.GenesisFile()) {
		return nil
	}
	if cfg.ChainID == "" {
		return errors.New("init genesis: chain id is empty")
	}
	doc := newGenesis(cfg.ChainID, cfg.AppState, []types.GenesisValidator{genesisValidator(pv, cc.Moniker)})
	return saveGenesis(cc.GenesisFile(), doc)
}

func ensureDirs(cc *cmtcfg.Config) error {
	for _, dir := range []string{
		filepath.Dir(cc.GenesisFile()), filepath.Dir(cc.NodeKeyFile()),
		filepath.Dir(cc.PrivValidatorKeyFile()), filepath.Dir(cc.PrivValidatorStateFile()),
		cc.DBDir(),
	} {
		if err := os.MkdirAll(dir, cmtcfg.DefaultDirPerm); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return nil
}

// writeConfigIfMissing writes cc as config.toml unless the file exists.
func writeConfigIfMissing(path string, cc *cmtcfg.Config) error {
	if exists(path) {
		return nil
	}
	return writeConfig(path, cc)
}

// writeConfig renders cc with CometBFT's own template. WriteConfigFile exits
// the process when the write fails, so first prove the file is writable.
func writeConfig(path string, cc *cmtcfg.Config) error {
	if err := os.MkdirAll(filepath.Dir(path), cmtcfg.DefaultDirPerm); err != nil {
		return fmt.Errorf("create config dir: %w", err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return fmt.Errorf("write config.toml: %w", err)
	}
	cmtcfg.WriteConfigFile(path, cc)
	return nil
}

// loadOrGenPV returns the file-backed validator signer, creating its key and
// an empty signing state on first use.
func loadOrGenPV(cc *cmtcfg.Config) (*privval.FilePV, error) {
	keyFile, stateFile := cc.PrivValidatorKeyFile(), cc.PrivValidatorStateFile()
	if exists(keyFile) {
		return loadPV(keyFile, stateFile)
	}
	if exists(stateFile) {
		return nil, fmt.Errorf("validator state %s exists without its key %s; refusing to pair it with a new key", stateFile, keyFile)
	}
	pv, err := privval.GenFilePV(keyFile, stateFile, nil) // nil: ed25519
	if err != nil {
		return nil, fmt.Errorf("generate validator key: %w", err)
	}
	pv.Save()
	return pv, nil
}

// loadPV reads the validator key and signing state. privval.LoadFilePV would
// exit the process on a missing or corrupt file; here that is an error.
func loadPV(keyFile, stateFile string) (*privval.FilePV, error) {
	var key privval.FilePVKey
	if err := readJSON(keyFile, &key); err != nil {
		return nil, fmt.Errorf("validator key: %w", err)
	}
	if !exists(stateFile) {
		// A fresh state would let the validator sign a height it already
		// signed; CometBFT's operators restore the file instead.
		return nil, fmt.Errorf("validator key %s exists but its signing state %s is missing", keyFile, stateFile)
	}
	pv := privval.NewFilePV(key.PrivKey, keyFile, stateFile)
	if err := readJSON(stateFile, &pv.LastSignState); err != nil {
		return nil, fmt.Errorf("validator state: %w", err)
	}
	return pv, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := cmtjson.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", path, err)
	}
	return nil
}

func genesisValidator(pv *privval.FilePV, name string) types.GenesisValidator {
	return types.GenesisValidator{
		Address: pv.Key.PubKey.Address(),
		PubKey:  pv.Key.PubKey,
		Power:   validatorPower,
		Name:    name,
	}
}

func newGenesis(chainID string, appState json.RawMessage, vals []types.GenesisValidator) *types.GenesisDoc {
	return &types.GenesisDoc{
		ChainID:         chainID,
		GenesisTime:     cmttime.Now(),
		InitialHeight:   1,
		ConsensusParams: types.DefaultConsensusParams(),
		Validators:      vals,
		AppState:        appState,
	}
}

func saveGenesis(path string, doc *types.GenesisDoc) error {
	if err := doc.ValidateAndComplete(); err != nil {
		return fmt.Errorf("validate genesis: %w", err)
	}
	if err := doc.SaveAs(path); err != nil {
		return fmt.Errorf("save genesis: %w", err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
