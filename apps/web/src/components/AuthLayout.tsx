import { Anchor, Box, Container, Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './AuthLayout.module.css';
import { Logo } from './Logo';

interface AuthLayoutProps {
  children: ReactNode;
  /** Shown beside the form on wide screens and below it on narrow ones. */
  aside?: ReactNode;
  headerLink?: { to: string; label: string };
}

export function AuthLayout({ children, aside, headerLink }: AuthLayoutProps) {
  return (
    <Box className={classes.page}>
      <Group component="header" justify="space-between" className={classes.header}>
        <Logo />
        {headerLink && (
          <Anchor component={Link} to={headerLink.to} fw={600}>
            {headerLink.label}
          </Anchor>
        )}
      </Group>
      <Container component="main" size={aside ? 1000 : 460} className={classes.body}>
        <div className={aside ? classes.split : undefined}>
          <Paper withBorder shadow="sm" radius="md" p="xl" className={classes.form}>
            {children}
          </Paper>
          {aside && <div className={classes.aside}>{aside}</div>}
        </div>
      </Container>
    </Box>
  );
}
