package main

import (
	"math"
	"math/rand/v2"
)

// sampleRate is 22.05 kHz: the synth voices carry little energy above
// 10 kHz, and the lower rate lets lame spend its small bitrate on the mids.
const sampleRate = 22050

// instrument renders one note of the given pitch, held for hold seconds.
// The result may run longer than hold while the note releases or rings.
type instrument interface {
	render(freq, hold float64) []float64
}

// envelope is an ADSR whose decay is exponential, which sounds natural for
// both sustained pads (sustain > 0) and plucks (sustain = 0).
type envelope struct {
	attack, decay, sustain, release float64
}

func (e envelope) level(t, hold float64) float64 {
	v := e.sustain + (1-e.sustain)*math.Exp(-(t-e.attack)/e.decay)
	if t < e.attack {
		v = t / e.attack
	}
	if t > hold {
		v *= math.Max(0, 1-(t-hold)/e.release)
	}
	return v
}

// timbre is an additive voice: a stack of harmonics, optionally duplicated
// at small detunings so that the copies beat gently like an ensemble.
type timbre struct {
	harmonics int
	rolloff   float64   // partial h has amplitude 1/h^rolloff; higher is darker
	damping   float64   // extra decay per partial per second, so highs die first as on a string
	detune    []float64 // cents
	env       envelope
}

func (tb timbre) render(freq, hold float64) []float64 {
	out := make([]float64, int((hold+tb.env.release)*sampleRate))
	for _, cents := range tb.detune {
		f := freq * math.Pow(2, cents/1200)
		// Partials near Nyquist would alias into audible whistles, so stop short.
		for h := 1; h <= tb.harmonics && float64(h)*f < 0.45*sampleRate; h++ {
			amp := math.Pow(float64(h), -tb.rolloff) / float64(len(tb.detune))
			addPartial(out, f*float64(h), amp, tb.damping*float64(h-1))
		}
	}
	for i := range out {
		out[i] *= tb.env.level(float64(i)/sampleRate, hold)
	}
	return out
}

// addPartial adds a sine with exponential decay, updating the decay
// factor multiplicatively to avoid an Exp call per sample.
func addPartial(out []float64, f, amp, decay float64) {
	w := 2 * math.Pi * f / sampleRate
	g := math.Exp(-decay / sampleRate)
	for i := range out {
		out[i] += amp * math.Sin(w*float64(i))
		amp *= g
	}
}

// fm is a two-operator FM voice. Non-integer ratios give bells and mallets;
// a ratio of 1 gives brassy or electric-piano tones.
type fm struct {
	ratio, index float64 // modulator/carrier frequency ratio and peak depth
	decay        float64 // seconds for loudness to fall by 1/e
	ring         float64 // seconds the note keeps sounding after its hold
}

func (b fm) render(freq, hold float64) []float64 {
	out := make([]float64, int((hold+b.ring)*sampleRate))
	wc := 2 * math.Pi * freq / sampleRate
	wm := wc * b.ratio
	for i := range out {
		t := float64(i) / sampleRate
		env := math.Exp(-t/b.decay) * math.Min(1, t/0.004)
		if t > hold {
			env *= math.Max(0, 1-(t-hold)/b.ring)
		}
		// Brightness fades faster than loudness, as on struck metal.
		idx := b.index * math.Exp(-2*t/b.decay)
		out[i] = env * math.Sin(wc*float64(i)+idx*math.Sin(wm*float64(i)))
	}
	return out
}

// kick is a sine whose pitch drops quickly: the sweep gives the thump.
// The linear taper reaches zero at the end so truncation cannot click.
func kick(*rand.Rand) []float64 {
	out := make([]float64, sampleRate*45/100)
	phase := 0.0
	for i := range out {
		t := float64(i) / sampleRate
		phase += 2 * math.Pi * (45 + 85*math.Exp(-t/0.035)) / sampleRate
		out[i] = math.Sin(phase) * math.Exp(-t/0.16) * (1 - t/0.45)
	}
	return out
}

// snare mixes a short tone (the drum head) with high-passed noise (the wires).
func snare(rng *rand.Rand) []float64 {
	out := make([]float64, sampleRate*30/100)
	lp := 0.0
	for i := range out {
		t := float64(i) / sampleRate
		n := rng.Float64()*2 - 1
		lp += 0.25 * (n - lp)
		out[i] = 0.7*(n-lp)*math.Exp(-t/0.07) + 0.5*math.Sin(2*math.Pi*185*t)*math.Exp(-t/0.04)
	}
	return out
}

// hat is very short high-passed noise.
func hat(rng *rand.Rand) []float64 {
	out := make([]float64, sampleRate*12/100)
	lp := 0.0
	for i := range out {
		t := float64(i) / sampleRate
		n := rng.Float64()*2 - 1
		lp += 0.6 * (n - lp)
		out[i] = (n - lp) * math.Exp(-t/0.022)
	}
	return out
}

// reverb is a small Schroeder reverb (parallel damped combs into series
// allpasses); it glues the dry synth voices into one space.
func reverb(in []float64) []float64 {
	out := make([]float64, len(in))
	combs := []int{1557, 1617, 1491, 1422, 1277, 1356}
	for _, d := range combs {
		comb(in, out, d*sampleRate/44100, 0.8, 0.3)
	}
	for i := range out {
		out[i] /= float64(len(combs))
	}
	for _, d := range []int{556, 441, 225} {
		allpass(out, d*sampleRate/44100, 0.5)
	}
	return out
}

// comb adds a feedback delay whose loop is low-passed, so highs fade faster
// than lows as they do in a real room.
func comb(in, out []float64, delay int, feedback, damp float64) {
	buf := make([]float64, delay)
	filt := 0.0
	for i, x := range in {
		y := buf[i%delay]
		filt = y*(1-damp) + filt*damp
		buf[i%delay] = x + filt*feedback
		out[i] += y
	}
}

// allpass diffuses echoes in place without colouring the spectrum.
func allpass(x []float64, delay int, g float64) {
	buf := make([]float64, delay)
	for i, v := range x {
		b := buf[i%delay]
		buf[i%delay] = v + b*g
		x[i] = b - v
	}
}

// master sums the buses, fades the edges so playback starts and stops
// without clicks, and normalizes to -1 dBFS so nothing clips after encoding.
func master(s *song) []float64 {
	wet := reverb(s.wet)
	out := make([]float64, len(s.dry))
	for i := range out {
		out[i] = s.dry[i] + wet[i]
	}
	fade(out, 0.4, 3)
	normalize(out, math.Pow(10, -1.0/20))
	return out
}

// fade applies raised-cosine ramps of the given lengths (seconds).
func fade(x []float64, in, out float64) {
	nIn, nOut := int(in*sampleRate), int(out*sampleRate)
	for i := 0; i < nIn && i < len(x); i++ {
		x[i] *= 0.5 - 0.5*math.Cos(math.Pi*float64(i)/float64(nIn))
	}
	for i := 0; i < nOut && i < len(x); i++ {
		x[len(x)-1-i] *= 0.5 - 0.5*math.Cos(math.Pi*float64(i)/float64(nOut))
	}
}

func normalize(x []float64, peak float64) {
	maxAbs := 0.0
	for _, v := range x {
		maxAbs = math.Max(maxAbs, math.Abs(v))
	}
	if maxAbs == 0 {
		return
	}
	for i := range x {
		x[i] *= peak / maxAbs
	}
}
