DROP TABLE login_pace;
