// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Obj is a JSON object that keeps its keys in order, so that the document
// reads in the order it was written and generated.
type Obj struct {
	keys []string
	m    map[string]any
}

// obj makes an object of key, value pairs.
func obj(kv ...any) *Obj {
	o := &Obj{m: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// Get is the value of key, nil when absent.
func (o *Obj) Get(key string) any { return o.m[key] }

// Obj is the object at key, nil when absent or not an object.
func (o *Obj) Obj(key string) *Obj {
	v, _ := o.m[key].(*Obj)
	return v
}

// Set sets key, keeping its place when it is already there.
func (o *Obj) Set(key string, v any) {
	if _, ok := o.m[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.m[key] = v
}

// Delete removes key.
func (o *Obj) Delete(key string) {
	if _, ok := o.m[key]; !ok {
		return
	}
	delete(o.m, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys are the object's keys in order.
func (o *Obj) Keys() []string { return o.keys }

// MarshalJSON writes the object in its order, without HTML escaping.
func (o *Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encode(&b, k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encode(&b, o.m[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func encode(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// decode reads one JSON value: objects as *Obj, numbers as json.Number.
func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := obj()
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			if _, dup := o.m[k.(string)]; dup {
				return nil, fmt.Errorf("the key %q appears twice in one object", k)
			}
			o.Set(k.(string), v)
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for d.More() {
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := d.Token()
		return a, err
	}
	return t, nil
}

// marshal writes v indented by two spaces, with a final newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, v); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// clone copies v deeply, so that a hand-written part merged in two places
// is two values.
func clone(v any) any {
	switch v := v.(type) {
	case *Obj:
		o := obj()
		for _, k := range v.keys {
			o.Set(k, clone(v.m[k]))
		}
		return o
	case []any:
		a := make([]any, len(v))
		for i := range v {
			a[i] = clone(v[i])
		}
		return a
	}
	return v
}
