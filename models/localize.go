package models

// Localized returns a copy of the content whose names and labels are in
// language lang wherever the content (or a user's override file) gives a
// translation in its names map; entries without one keep their default
// (English) text. Rules data is untouched.
func (c *Content) Localized(lang string) *Content {
	out := *c
	pick := func(def string, names map[string]string, key string) string {
		if v, ok := names[key]; ok && v != "" {
			return v
		}
		return def
	}
	out.FaceSets = make([]FaceSet, len(c.FaceSets))
	for i, fs := range c.FaceSets {
		fs.Faces = append([]Face(nil), fs.Faces...)
		for j, f := range fs.Faces {
			fs.Faces[j].Label = pick(f.Label, f.Names, lang)
		}
		fs.Name = pick(fs.Name, fs.Names, lang)
		out.FaceSets[i] = fs
	}
	out.EnemyTypes = make([]EnemyType, len(c.EnemyTypes))
	for i, e := range c.EnemyTypes {
		e.Name = pick(e.Name, e.Names, lang)
		e.Plural = pick(e.Plural, e.Names, lang+"_plural")
		out.EnemyTypes[i] = e
	}
	out.Factions = make([]Faction, len(c.Factions))
	for i, f := range c.Factions {
		f.Name = pick(f.Name, f.Names, lang)
		out.Factions[i] = f
	}
	out.Scenarios = make([]Scenario, len(c.Scenarios))
	for i, s := range c.Scenarios {
		s.Name = pick(s.Name, s.Names, lang)
		s.Factions = append([]ScenarioFaction(nil), s.Factions...)
		for j, f := range s.Factions {
			f.Plus.Label = pick(f.Plus.Label, f.Plus.Names, lang)
			f.Activation = append([]EffectRow(nil), f.Activation...)
			for k, r := range f.Activation {
				f.Activation[k].Label = pick(r.Label, r.Names, lang)
				f.Activation[k].Text = pick(r.Text, r.Names, lang+"_text")
			}
			s.Factions[j] = f
		}
		out.Scenarios[i] = s
	}
	return &out
}
