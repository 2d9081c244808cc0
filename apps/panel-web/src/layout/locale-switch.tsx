import { MenuItem, TextField } from '@mui/material';
import { useId } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';

/** TR/EN switch for the sign-in page: a labelled select (keyboard and screen-reader friendly). */
export function LocaleSwitch() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const id = useId();
  return (
    <TextField
      id={id}
      select
      size="small"
      label={translate('tg.language')}
      value={locale}
      onChange={(event) => setLocale(event.target.value)}
      sx={{ minWidth: 130 }}
    >
      <MenuItem value="tr">Türkçe</MenuItem>
      <MenuItem value="en">English</MenuItem>
    </TextField>
  );
}
