import { Typography } from '@mui/material';
import SecurityIcon from '@mui/icons-material/Security';
import type { ReactNode } from 'react';
import { AppBar, Layout, Logout, MenuItemLink, TitlePortal, UserMenu, useTranslate } from 'react-admin';
import { operatorTimeZone } from '../format/time';
import { timeZoneLabel } from '../format/turkish-time';
import { currentLocale } from '../i18n/current-locale';
import { AttentionControls, AttentionProvider } from './attention';

function PanelUserMenu() {
  const translate = useTranslate();
  return (
    <UserMenu>
      <MenuItemLink to="/two-factor" primaryText={translate('tg.twofa.menu')} leftIcon={<SecurityIcon />} />
      <Logout />
    </UserMenu>
  );
}

/** react-admin adds its language menu to the bar by itself (the i18n provider lists two locales). */
function PanelAppBar() {
  const translate = useTranslate();
  return (
    <AppBar userMenu={<PanelUserMenu />}>
      <TitlePortal />
      {/* Left out on a phone, whose bar has no room for it (every time there is still in this zone). */}
      <Typography
        variant="caption"
        sx={{ mx: 2, opacity: 0.85, display: { xs: 'none', sm: 'block' }, whiteSpace: 'nowrap' }}
        data-testid="time-zone"
      >
        {translate('tg.time_zone', { zone: timeZoneLabel(operatorTimeZone(), currentLocale()) })}
      </Typography>
      <AttentionControls />
    </AppBar>
  );
}

export function PanelLayout({ children }: { children: ReactNode }) {
  return (
    <AttentionProvider>
      <Layout
        appBar={PanelAppBar}
        // react-admin's layout is at least as wide as its widest line (min-width: fit-content): on a
        // phone a long select or IBAN made the page 450 px wide. There it fits the screen instead, and
        // such a line wraps or ends in an ellipsis; on a desktop wide tables still widen the page.
        sx={{ minWidth: { xs: 0, sm: 'fit-content' }, '& .RaLayout-content': { minWidth: { xs: 0 } } }}
      >
        {children}
      </Layout>
    </AttentionProvider>
  );
}
