package node

import (
	"context"
	"fmt"
	"log/slog"

	cmtlog "github.com/cometbft/cometbft/libs/log"
)

// slogLogger adapts CometBFT's logger interface to log/slog, so the chain logs
// where and how the rest of dForge does. CometBFT passes alternating keys and
// values, which is also what slog's variadic args accept.
type slogLogger struct {
	l   *slog.Logger
	min slog.Leveler
}

var _ cmtlog.Logger = slogLogger{}

func newLogger(cfg Config) cmtlog.Logger {
	return slogLogger{l: cfg.logger().With("component", "cometbft"), min: cfg.logLevel()}
}

func (s slogLogger) Debug(msg string, keyvals ...any) { s.log(slog.LevelDebug, msg, keyvals) }
func (s slogLogger) Info(msg string, keyvals ...any)  { s.log(slog.LevelInfo, msg, keyvals) }
func (s slogLogger) Error(msg string, keyvals ...any) { s.log(slog.LevelError, msg, keyvals) }

// With keeps the level filter: CometBFT derives a logger per module at start.
func (s slogLogger) With(keyvals ...any) cmtlog.Logger {
	return slogLogger{l: s.l.With(keyvals...), min: s.min}
}

// log checks the level before handing over, because CometBFT logs at debug
// and info on every block, vote and peer message.
func (s slogLogger) log(level slog.Level, msg string, keyvals []any) {
	ctx := context.Background()
	if level < s.min.Level() || !s.l.Enabled(ctx, level) {
		return
	}
	s.l.Log(ctx, level, msg, keyvals...)
}

// pebbleLogger routes pebble's messages to slog at info, under the same level
// filter as CometBFT's.
type pebbleLogger struct {
	l   *slog.Logger
	min slog.Leveler
}

func (p pebbleLogger) Infof(format string, args ...any) {
	if p.min.Level() <= slog.LevelInfo {
		p.l.Info(fmt.Sprintf(format, args...))
	}
}

// Fatalf reports an unrecoverable storage error. Pebble's default exits the
// process; a panic does too unless a caller recovers, and shows where.
func (p pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.l.Error(msg)
	panic("pebble: " + msg)
}
