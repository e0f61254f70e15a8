package main

// The instrument palette shared by the four pieces.
var (
	softPad   = timbre{harmonics: 8, rolloff: 1.7, detune: []float64{-7, 0, 7}, env: envelope{0.9, 1.5, 0.75, 1.6}}
	darkPad   = timbre{harmonics: 6, rolloff: 2.2, detune: []float64{-10, 0, 10}, env: envelope{0.5, 1.0, 0.7, 0.8}}
	hum       = timbre{harmonics: 5, rolloff: 2, detune: []float64{-5, 5}, env: envelope{0.15, 0.8, 0.8, 0.5}}
	harp      = timbre{harmonics: 10, rolloff: 1.3, damping: 1.2, detune: []float64{0}, env: envelope{0.004, 0.9, 0, 0.4}}
	pluck     = timbre{harmonics: 10, rolloff: 1.1, damping: 2.5, detune: []float64{0}, env: envelope{0.003, 0.35, 0, 0.08}}
	roundBass = timbre{harmonics: 4, rolloff: 2, detune: []float64{0}, env: envelope{0.02, 0.4, 0.7, 0.15}}
	sawBass   = timbre{harmonics: 14, rolloff: 1, damping: 6, detune: []float64{-5, 5}, env: envelope{0.004, 0.2, 0.55, 0.05}}
	chime     = fm{ratio: 3.5, index: 1.2, decay: 1.1, ring: 1.5}
	epiano    = fm{ratio: 1, index: 1.4, decay: 0.8, ring: 0.25}
	marimba   = fm{ratio: 4, index: 0.9, decay: 0.35, ring: 0.4}
	ember     = fm{ratio: 1, index: 2.2, decay: 0.5, ring: 0.15}
)

// strum plays a chord's tones in quick succession, as a final flourish.
func (s *song) strum(h harmony, inst instrument, gain, send float64) {
	for i, m := range h.tones {
		at := h.at + float64(i)*0.06
		s.place(at, inst.render(hz(m), s.secs(h.beats)), gain, send)
	}
}

// polyhymnia is a slow hymn in D major: a descending-bass chorale under a
// bell melody, with a harp joining for the second verse.
func polyhymnia() (*song, error) {
	chords := []chord{
		{4, "D2", "F#3 A3 D4"}, {4, "C#2", "E3 A3 C#4"}, {4, "B1", "F#3 B3 D4"}, {4, "A1", "E3 A3 C#4"},
		{4, "G1", "G3 B3 D4"}, {4, "F#1", "F#3 A3 D4"}, {4, "E2", "G3 B3 D4"},
		{2, "A1", "E3 A3 D4"}, {2, "A1", "E3 A3 C#4"},
		{4, "G1", "G3 B3 D4"}, {4, "A1", "E3 A3 C#4"},
		{2, "F#1", "F#3 A3 C#4"}, {2, "B1", "F#3 B3 D4"},
		{2, "E2", "G3 B3 E4"}, {2, "A1", "E3 A3 C#4"}, {6, "D2", "F#3 A3 D4"},
	}
	tune, err := parseLine("F#5:2 E5:1 D5:1 E5:2 A4:2 D5:2 C#5:1 B4:1 C#5:3 r:1 " +
		"B4:2 D5:1 G5:1 F#5:2 A5:2 G5:1 F#5:1 E5:1 D5:1 E5:4 " +
		"D5:2 B4:2 C#5:2 E5:2 F#5:2 D5:2 G5:1 F#5:1 E5:2 D5:6")
	if err != nil {
		return nil, err
	}
	hs, end, err := resolve(chords, 0, 0)
	if err != nil {
		return nil, err
	}
	s := newSong(63, end, 4, 1)
	s.pads(hs, softPad, 0.11, 0.6)
	s.bassLine(hs, []step{{0, 4, 0}}, 4, roundBass, 0.18)
	s.melody(tune, 0, 0, chime, 0.3, 0.45)
	s.melody(tune, 0, -12, hum, 0.06, 0.6)
	s.arpeggio(hs[9:len(hs)-1], 0.5, []int{0, 1, 2, 3, 2, 1, 2, 1}, harp, 0.12, 0.5)
	s.strum(hs[len(hs)-1], harp, 0.12, 0.5)
	return s, nil
}

// theOne is a warm mid-tempo song in F major: fingerpicked chords, a
// walking bass and an electric-piano tune over soft drums.
func theOne() (*song, error) {
	f, bb, c := chord{4, "F2", "A3 C4 F4"}, chord{4, "Bb1", "Bb3 D4 F4"}, chord{4, "C2", "G3 C4 E4"}
	dm, gm, am := chord{4, "D2", "A3 D4 F4"}, chord{4, "G1", "Bb3 D4 G4"}, chord{4, "A1", "A3 C4 E4"}
	chords := []chord{
		f, bb,
		f, c, dm, bb, f, c, bb, c,
		dm, bb, f, c, gm, am, bb, c,
		bb, {6, "F2", "A3 C4 F4"},
	}
	tune, err := parseLine("r:8 " +
		"A4:1 C5:1 F5:1.5 E5:.5 D5:1 C5:1 G4:2 F4:.5 A4:.5 D5:1 C5:1 A4:1 D5:1.5 C5:.5 Bb4:2 " +
		"A4:1 C5:1 F5:1 G5:1 E5:1.5 D5:.5 C5:2 D5:1 F5:1 Bb4:1 D5:1 C5:1 E5:1 G5:2 " +
		"F5:1.5 E5:.5 D5:1 A4:1 Bb4:1 D5:1 F5:2 C5:1.5 A4:.5 F4:1 A4:1 G4:1 C5:1 E5:2 " +
		"D5:1 Bb4:1 G4:1 Bb4:1 C5:1 E5:1 A5:2 G5:1 F5:1 D5:1 Bb4:1 C5:1 D5:1 E5:2 " +
		"D5:2 C5:2 F5:6")
	if err != nil {
		return nil, err
	}
	hs, end, err := resolve(chords, 0, 0)
	if err != nil {
		return nil, err
	}
	last := len(hs) - 1
	s := newSong(96, end, 3, 2)
	s.pads(hs, softPad, 0.06, 0.5)
	s.arpeggio(hs[:last], 0.5, []int{0, 2, 1, 2, 3, 2, 1, 2}, pluck, 0.13, 0.3)
	s.strum(hs[last], harp, 0.12, 0.4)
	s.bassLine(hs[:last], []step{{0, 1.5, 0}, {1.5, 0.5, 0}, {2, 1.5, 7}, {3.5, 0.5, 12}}, 4, roundBass, 0.22)
	s.bassLine(hs[last:], []step{{0, 6, 0}}, 6, roundBass, 0.22)
	s.melody(tune, 0, 0, epiano, 0.3, 0.3)
	s.drums(2, 16, []lane{
		{kick, "X.......X.......", 0.35},
		{snare, "....x.......x...", 0.18},
		{hat, "..X...X...X...X.", 0.1},
	})
	return s, nil
}

// unexpectedDirections bounces a playful I-vi-IV-V through C, E-flat,
// A-flat and E major before landing home in C, under sixteenth-note arpeggios.
func unexpectedDirections() (*song, error) {
	base := []chord{{4, "C2", "C4 E4 G4"}, {4, "A1", "A3 C4 E4"}, {4, "F2", "A3 C4 F4"}, {4, "G2", "B3 D4 G4"}}
	call, err := parseLine("r:.5 E5:.5 G5:.5 E5:.5 C6:1 G5:1 A5:.5 G5:.5 E5:.5 C5:.5 A4:1 r:1 " +
		"F5:.5 A5:.5 C6:.5 A5:.5 F5:.5 E5:.5 F5:1 D5:.5 r:.5 D5:.5 E5:.5 G5:1 B4:1")
	if err != nil {
		return nil, err
	}
	answer, err := parseLine("G5:.75 E5:.75 C5:.5 D5:1 E5:1 C5:.5 E5:.5 A5:1.5 G5:.5 E5:1 " +
		"F5:.75 A5:.75 F5:.5 C5:1 A4:1 B4:.5 D5:.5 G5:.5 F5:.5 D5:2")
	if err != nil {
		return nil, err
	}
	finale, err := parseLine("C5:1 G5:1 C6:2")
	if err != nil {
		return nil, err
	}
	// Each section restates the progression in a new key; the tunes are
	// written in C and transposed along with it.
	type section struct {
		at    float64
		shift int
		tune  []event
	}
	var hs []harmony
	var secs []section
	at := 0.0
	for i, shift := range []int{0, 3, -4, 4, 0} {
		sec, end, err := resolve(base, at, shift)
		if err != nil {
			return nil, err
		}
		tune := call
		if i%2 == 1 {
			tune = answer
		}
		secs = append(secs, section{at, shift, tune})
		hs, at = append(hs, sec...), end
	}
	home, end, err := resolve([]chord{{4, "C2", "C4 E4 G4"}}, at, 0)
	if err != nil {
		return nil, err
	}
	s := newSong(112, end, 3, 3)
	for _, sec := range secs {
		s.melody(sec.tune, sec.at, sec.shift, marimba, 0.3, 0.3)
	}
	s.melody(finale, at, 0, marimba, 0.3, 0.3)
	s.arpeggio(hs, 0.25, []int{0, 2, 1, 3, 2, 1, 3, 1}, pluck, 0.1, 0.25)
	s.bassLine(hs, []step{{0, 0.5, 0}, {1, 0.5, 12}, {2, 0.5, 0}, {2.5, 0.5, 7}, {3, 0.75, 12}}, 4, roundBass, 0.2)
	s.bassLine(home, []step{{0, 4, 0}}, 4, roundBass, 0.2)
	hs = append(hs, home...)
	s.pads(hs, softPad, 0.05, 0.5)
	s.strum(home[0], harp, 0.12, 0.4)
	s.drums(1, 19, []lane{
		{kick, "X.....x...X.....", 0.3},
		{snare, "....X.......X...", 0.14},
		{hat, "xxXxxxXxxxXxxxXx", 0.06},
	})
	return s, nil
}

// vulcan is dark and driving, in D minor at 132 BPM: a filtered saw bass
// in eighths, four-on-the-floor drums and a brassy FM lead.
func vulcan() (*song, error) {
	dm, bb, c := chord{4, "D2", "D3 F3 A3"}, chord{4, "Bb1", "D3 F3 Bb3"}, chord{4, "C2", "E3 G3 C4"}
	gm, a := chord{4, "G1", "D3 G3 Bb3"}, chord{4, "A1", "C#3 E3 A3"}
	rise, fall := []chord{dm, bb, c, dm}, []chord{dm, bb, gm, a}
	var chords []chord
	for _, p := range [][]chord{rise, rise, fall, rise, fall, rise, fall, {dm}} {
		chords = append(chords, p...)
	}
	lead, err := parseLine("D5:1.5 F5:.5 A5:1 G5:.5 F5:.5 F5:1 D5:1 Bb4:2 " +
		"C5:.5 E5:.5 G5:1 F5:.5 E5:.5 C5:1 D5:3 r:1 " +
		"A5:1.5 G5:.5 F5:1 E5:.5 D5:.5 F5:1.5 D5:.5 Bb4:1 D5:1 " +
		"G5:1 Bb5:1 A5:.5 G5:.5 D5:1 C#5:1 E5:1 A5:2")
	if err != nil {
		return nil, err
	}
	hs, end, err := resolve(chords, 0, 0)
	if err != nil {
		return nil, err
	}
	last := len(hs) - 1
	s := newSong(132, end, 2.5, 4)
	s.bassLine(hs[:last], []step{{0, .5, 0}, {.5, .5, 0}, {1, .5, 12}, {1.5, .5, 0}, {2, .5, 0}, {2.5, .5, 12}, {3, .5, 0}, {3.5, .5, 7}}, 4, sawBass, 0.17)
	s.bassLine(hs[last:], []step{{0, 4, 0}}, 4, sawBass, 0.17)
	s.pads(hs[4:], darkPad, 0.09, 0.4)
	s.melody(lead, 48, 0, ember, 0.32, 0.3)
	s.melody(lead, 80, 0, ember, 0.32, 0.3)
	s.arpeggio(hs[20:last], 0.25, []int{0, 1, 2, 3, 2, 1}, pluck, 0.07, 0.3)
	s.drums(0, 28, []lane{{kick, "X...X...X...X...", 0.4}})
	s.drums(0, 20, []lane{{hat, "..X...X...X...X.", 0.1}})
	s.drums(4, 24, []lane{{snare, "....X.......X...", 0.22}})
	s.drums(20, 8, []lane{{hat, "xxXxxxXxxxXxxxXx", 0.09}})
	s.drums(28, 1, []lane{{kick, "X...............", 0.4}})
	return s, nil
}
