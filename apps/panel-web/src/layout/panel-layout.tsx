import { Typography } from '@mui/material';
import SecurityIcon from '@mui/icons-material/Security';
import type { ReactNode } from 'react';
import { AppBar, Layout, Logout, MenuItemLink, TitlePortal, UserMenu, useTranslate } from 'react-admin';
import { operatorTimeZone } from '../format/time';
import { AttentionControls } from './attention';

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
      <Typography variant="caption" sx={{ mx: 2, opacity: 0.85 }} data-testid="time-zone">
        {translate('tg.time_zone', { zone: operatorTimeZone() })}
      </Typography>
      <AttentionControls />
    </AppBar>
  );
}

export function PanelLayout({ children }: { children: ReactNode }) {
  return <Layout appBar={PanelAppBar}>{children}</Layout>;
}
