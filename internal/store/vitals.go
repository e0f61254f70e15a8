package store

import (
	"context"
	"fmt"
	"time"
)

// WebVital is one Core Web Vitals measurement reported by a browser.
type WebVital struct {
	Name           string
	Value          float64
	Rating         string
	Delta          float64
	MetricID       string
	NavigationType string
	Page           string
	UserAgent      string
	ReportedAt     time.Time
	ReceivedAt     time.Time
}

// VitalSample is one value of a metric on a page, as read for aggregation.
type VitalSample struct {
	Name  string
	Page  string
	Value float64
}

// AddWebVital stores one measurement.
func (s *Store) AddWebVital(ctx context.Context, v WebVital) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO web_vitals
		(name, value, rating, delta, metric_id, navigation_type, page, user_agent, reported_at, received_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		v.Name, v.Value, v.Rating, v.Delta, v.MetricID, v.NavigationType, v.Page, v.UserAgent,
		v.ReportedAt.UnixMilli(), v.ReceivedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("insert web vital: %w", err)
	}
	return nil
}

// WebVitalSamples returns the values received since the given time, ordered
// by metric, page and value so callers can take percentiles in one pass.
func (s *Store) WebVitalSamples(ctx context.Context, since time.Time) ([]VitalSample, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, page, value FROM web_vitals
		WHERE received_at >= $1 ORDER BY name, page, value`, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("query web vitals: %w", err)
	}
	defer rows.Close()
	var out []VitalSample
	for rows.Next() {
		var v VitalSample
		if err := rows.Scan(&v.Name, &v.Page, &v.Value); err != nil {
			return nil, fmt.Errorf("scan web vital: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read web vitals: %w", err)
	}
	return out, nil
}
