package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// pitchClass maps note letters to semitones above C.
var pitchClass = map[byte]int{'C': 0, 'D': 2, 'E': 4, 'F': 5, 'G': 7, 'A': 9, 'B': 11}

// midiOf parses scientific pitch notation ("C4", "F#3", "Bb1") into a MIDI
// note number; writing names keeps the scores readable as music.
func midiOf(name string) (int, error) {
	if len(name) < 2 {
		return 0, fmt.Errorf("note %q: too short", name)
	}
	pc, ok := pitchClass[name[0]]
	if !ok {
		return 0, fmt.Errorf("note %q: bad letter", name)
	}
	rest := name[1:]
	switch rest[0] {
	case '#':
		pc, rest = pc+1, rest[1:]
	case 'b':
		pc, rest = pc-1, rest[1:]
	}
	oct, err := strconv.Atoi(rest)
	if err != nil {
		return 0, fmt.Errorf("note %q: bad octave: %w", name, err)
	}
	return 12*(oct+1) + pc, nil
}

// hz converts a MIDI note to equal-tempered frequency (A4 = 440 Hz).
func hz(midi int) float64 {
	return 440 * math.Pow(2, float64(midi-69)/12)
}

// event is one melody note; beat is relative to the start of its line.
type event struct {
	beat, dur float64
	midi      int
}

// parseLine reads space-separated "NOTE:beats" tokens played end to end,
// with "r:beats" for a rest.
func parseLine(line string) ([]event, error) {
	var evs []event
	beat := 0.0
	for _, tok := range strings.Fields(line) {
		name, length, ok := strings.Cut(tok, ":")
		if !ok {
			return nil, fmt.Errorf("token %q: missing :beats", tok)
		}
		dur, err := strconv.ParseFloat(length, 64)
		if err != nil {
			return nil, fmt.Errorf("token %q: %w", tok, err)
		}
		if name != "r" {
			m, err := midiOf(name)
			if err != nil {
				return nil, err
			}
			evs = append(evs, event{beat: beat, dur: dur, midi: m})
		}
		beat += dur
	}
	return evs, nil
}

// chord is a score entry: how long it lasts, its bass note, and the
// upper voicing as space-separated note names.
type chord struct {
	beats float64
	bass  string
	tones string
}

// harmony is a chord resolved to an absolute start beat and MIDI numbers.
type harmony struct {
	at, beats float64
	bass      int
	tones     []int
}

// resolve lays chords end to end from beat at, transposed by shift
// semitones, and returns them with the beat where they end.
func resolve(chords []chord, at float64, shift int) ([]harmony, float64, error) {
	var hs []harmony
	for _, c := range chords {
		b, err := midiOf(c.bass)
		if err != nil {
			return nil, 0, err
		}
		h := harmony{at: at, beats: c.beats, bass: b + shift}
		for _, name := range strings.Fields(c.tones) {
			m, err := midiOf(name)
			if err != nil {
				return nil, 0, err
			}
			h.tones = append(h.tones, m+shift)
		}
		hs = append(hs, h)
		at += c.beats
	}
	return hs, at, nil
}

// song holds two mix buses: dry, and a send that master() runs through
// the reverb, so each part can choose how far back in the room it sits.
type song struct {
	bpm      float64
	dry, wet []float64
	rng      *rand.Rand
}

// newSong sizes the buses for beats of music plus tail seconds for the
// last notes and the reverb to ring out. The fixed seed makes the drum
// noise identical on every run.
func newSong(bpm, beats, tail float64, seed uint64) *song {
	n := int((beats*60/bpm + tail) * sampleRate)
	return &song{
		bpm: bpm,
		dry: make([]float64, n),
		wet: make([]float64, n),
		rng: rand.New(rand.NewPCG(seed, 0x5eed)),
	}
}

func (s *song) secs(beats float64) float64 { return beats * 60 / s.bpm }

// place mixes a rendered note in at a beat; send is the share routed to the reverb.
func (s *song) place(beat float64, note []float64, gain, send float64) {
	start := int(math.Round(s.secs(beat) * sampleRate))
	for i, v := range note {
		j := start + i
		if j >= len(s.dry) {
			return
		}
		s.dry[j] += v * gain
		s.wet[j] += v * gain * send
	}
}

// melody plays a parsed line from beat at, transposed by shift. Notes are
// held slightly short of their value so repeated pitches re-articulate.
func (s *song) melody(evs []event, at float64, shift int, inst instrument, gain, send float64) {
	for _, ev := range evs {
		s.place(at+ev.beat, inst.render(hz(ev.midi+shift), s.secs(ev.dur)*0.92), gain, send)
	}
}

// pads sustains every chord tone for the chord's full length; the
// instrument's release makes consecutive chords overlap smoothly.
func (s *song) pads(hs []harmony, inst instrument, gain, send float64) {
	for _, h := range hs {
		for _, m := range h.tones {
			s.place(h.at, inst.render(hz(m), s.secs(h.beats)), gain, send)
		}
	}
}

// step is one note of a bass groove: offset and length in beats, and the
// interval in semitones above the chord's bass note.
type step struct {
	at, dur  float64
	interval int
}

// bassLine repeats a groove of span beats under each chord, cutting it
// off where the chord changes.
func (s *song) bassLine(hs []harmony, groove []step, span float64, inst instrument, gain float64) {
	for _, h := range hs {
		for off := 0.0; off < h.beats; off += span {
			for _, st := range groove {
				if off+st.at >= h.beats {
					break
				}
				dur := math.Min(st.dur, h.beats-off-st.at)
				s.place(h.at+off+st.at, inst.render(hz(h.bass+st.interval), s.secs(dur)*0.9), gain, 0.08)
			}
		}
	}
}

// arpeggio walks each chord's tones, plus the lowest an octave up, in the
// given order at one note per step beats. Notes on the beat are accented
// so the pattern keeps a clear pulse.
func (s *song) arpeggio(hs []harmony, step float64, order []int, inst instrument, gain, send float64) {
	for _, h := range hs {
		tones := append(slices.Clone(h.tones), h.tones[0]+12)
		for i := 0; float64(i)*step < h.beats; i++ {
			at := float64(i) * step
			accent := 0.7
			if at == math.Trunc(at) {
				accent = 1
			}
			m := tones[order[i%len(order)]%len(tones)]
			s.place(h.at+at, inst.render(hz(m), s.secs(step)), gain*accent, send)
		}
	}
}

// lane is one drum voice's pattern for a 4/4 bar: one character per
// sixteenth note, 'X' for an accent, 'x' for a soft hit, '.' for silence.
type lane struct {
	hit     func(*rand.Rand) []float64
	pattern string
	gain    float64
}

// drums plays the lanes for bars bars starting at bar fromBar.
func (s *song) drums(fromBar, bars int, lanes []lane) {
	for bar := fromBar; bar < fromBar+bars; bar++ {
		for _, l := range lanes {
			for i, c := range l.pattern {
				beat := float64(bar*4) + float64(i)/4
				switch c {
				case 'X':
					s.place(beat, l.hit(s.rng), l.gain, 0.08)
				case 'x':
					s.place(beat, l.hit(s.rng), l.gain*0.5, 0.08)
				}
			}
		}
	}
}
